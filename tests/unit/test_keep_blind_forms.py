"""The "please remember" grammar on the forms each blind round of authors showed it lacked, in our own
sentences, and on near forms that must stay what they are (advice, questions, the listener's case)."""
import pytest

from agent.keep_grammar import declined_request
from agent.keep_requests import is_keep_request
from tests.unit.test_keep_requests import assert_kept


def assert_declined(text: str) -> None:
    """The grammar read a request's form and ruled it out, so not even a reader that says yes to all keeps it."""
    assert declined_request(text) and not is_keep_request(text, lambda _: True)


@pytest.mark.parametrize("text, fact", [
    # forms blind10 showed the grammar lacked (our own sentences)
    ("Remember me brother's name is Seamus", "Seamus"), ("Querida, grava na tua memória que sou alérgica a camarão, tá bom?", "camarão"),
    ("Já te disse antes, mas anota outra vez: a minha irmã chama-se Inês", "Inês"),
    ("Regista aí que a minha filha nasceu em março", "março"), ("bota na memória que eu sou flamenguista", "flamenguista"),
    ("vc podia guardar que eu não tomo café?", "café"), ("guarda essa info: meu cpf termina em 77", "77"),
    ("ao ricordate che er lunedì vado in palestra", "palestra"), ("te lo dico così te lo segni: faccio il panettiere", "panettiere"),
    ("tienilo presente che sono astemio", "astemio"), ("conserva questo: il mio gruppo sanguigno è A+", "A+"),
    ("aggiungi alle cose che sai di me: gioco a padel", "padel"), ("Mets dans un coin de ta mémoire que je pars le 14", "14"),
    ("je te donne un truc à retenir : mon code est 4410", "4410"), ("Das darfst du dir merken: ich bin jetzt Veganerin", "Veganerin"),
    ("oye, para la próxima vez recuerda que no como gluten", "gluten"), ("내 혈액형 B형임 기억하셈", "B형"),
    ("我的车牌是沪A12345，你记着点，下回我说车牌你别问是哪个", "沪A12345"), ("这个你帮我留个底，我的工号是8812", "8812"),
])
def test_the_forms_blind10_found_are_requests(text, fact):
    assert_kept(text, fact)


@pytest.mark.parametrize("text", [
    "Remember me? We met at the gym last year.", "Remember me telling you about Lisbon?",
    "vi ricordate quando siamo andati al mare?", "ma ricordati che sei più forte di così", "così ricordo meglio le cose",
    "mas lembra que você merece descansar", "你记得吗，我们第一次见面是在哪里？", "你还记得我最喜欢哪个歌手吗",
    "Das kannst du dir eh nicht merken, oder?", "le professeur nous a dit un truc à retenir : toujours relire",
])
def test_near_forms_that_ask_or_advise_are_still_not_requests(text):
    assert not is_keep_request(text)


@pytest.mark.parametrize("text, fact", [
    # forms blind11 showed the grammar lacked (our own sentences)
    ("Wärst du so lieb und merkst dir, dass ich Linkshänderin bin?", "Linkshänderin"), ("Neue Nummer: 0171 5550. Bitte vermerken.", "0171"),
    ("I'm vegan since June so remember that, don't offer me cheese", "vegan"), ("lock this in: my flight is the 9th", "9th"),
    ("mido 1,80, quédate con ese dato", "1,80"), ("Me gustaría que te quedaras con esto: odio el café", "café"),
    ("guarda el teléfono del dentista: 600 111 222", "600"), ("mi hijo es celíaco, tenlo apuntado para las recetas", "celíaco"),
    ("ajoute à ce que tu sais sur moi : je fais de l'escalade", "escalade"), ("aò segnate che giovedì ho il dentista", "dentista"),
    ("Tesoro segnati che sabato c'è la cena da Anna", "Anna"), ("mi segni che il mio gatto si chiama Tofu?", "Tofu"),
    ("Escreve aí na tua memória: sou canhota", "canhota"), ("내 혈액형 O형이야 까먹지 마", "O형"), ("내 생일 7월 1일이다. 기억해 두그래이", "7월 1일"),
    ("你能不能把这个放心上：我对芒果过敏", "芒果"),
    ("If you can, remember that my mum's name is Hilde", "Hilde"), ("Wenn du magst, merk dir, dass ich Jonas heiße", "Jonas"),
    ("Next time you see me, remember I hate mornings", "mornings"),
])
def test_the_forms_blind11_found_are_requests(text, fact):
    assert_kept(text, fact)


@pytest.mark.parametrize("text", [
    "If you ever feel lonely, remember that you matter.", "Falls du mal nicht schlafen kannst, merk dir: warme Milch hilft.",
    "si alguna vez te sientes perdido, recuerda que siempre hay salida", "Si tu doutes, retiens ceci : on apprend en se trompant.",
    "se ti senti giù, ricordati che domani è un altro giorno", "quando você estiver triste, lembra que tudo passa",
    "너는 우리 대화 다 기억해둬?", "记得大学那会儿我们天天熬夜打游戏", "mi piace segnare i gol di testa",
])
def test_advice_for_the_listeners_case_and_questions_are_not_requests(text):
    assert not is_keep_request(text)


@pytest.mark.parametrize("text, fact", [
    # forms blind12 showed the grammar lacked (our own sentences)
    ("Ey vergiss ned, mei Katz heißt Minka", "Minka"), ("Es wär echt super, wenn du dir merken könntest, dass ich Jana heiße", "Jana"),
    ("Ich bin Bäcker, speicher dir das ruhig ab, damit du's weißt.", "Bäcker"), ("Leg dir das bitte ab: mein Zug fährt um 6", "Zug"),
    ("Erinner dich nächstes Mal bitte dran, dass ich Schach spiele", "Schach"),
    ("Store this somewhere in that brain of yours: my cat is Pixel", "Pixel"), ("ugh ok remember my boss is Dana", "Dana"),
    ("rememberrr that my mum is Ruth", "Ruth"), ("Just so you've got it for later: I start at Acme on May 2", "Acme"),
    ("bookmark this for me, the bakery is Rosa's on Elm", "Rosa's"), ("wey guarda que mi primo se llama Lalo", "Lalo"),
    ("apunta en tu libreta que mi cumple es el 9 de julio", "9 de julio"), ("Ponlo en tus notas: mi talla es la M", "M"),
    ("wesh retiens que je bosse de nuit", "nuit"), ("Mon chat s'appelle Pixel. Retiens-le stp, tu l'as oublié hier", "Pixel"),
    ("salva da qualche parte che sono allergica al lattice", "lattice"), ("Cmq memorizza che faccio yoga il martedì", "yoga"),
    ("Ti prego di memorizzare il nome del mio vicino, Aldo", "Aldo"), ("te lo dico una volta e poi te lo tieni in memoria: odio l'aglio", "aglio"),
    ("não quero repetir então grava: tenho dois gatos", "dois gatos"), ("내 최애 음식은 떡볶이다 머릿속에 딱 넣어놔", "떡볶이"),
    ("내 차 번호 1234 알아두셈", "1234"), ("이거 하나 기억해줄수 있어? 나 땅콩 알레르기 있어", "땅콩"), ("我不吃辣！这个一定要记住", "不吃辣"),
])
def test_the_forms_blind12_found_are_requests(text, fact):
    assert_kept(text, fact)


@pytest.mark.parametrize("text", [
    "Es wär echt hilfreich, wenn du dir nicht alles merken würdest", "Leg dich ab und schlaf, du bist müde.",
    "ugh I remember when we used to do that", "the old bookmark bar is a mess", "se piove e poi ricordati che il mondo gira",
])
def test_near_forms_of_blind12_are_still_not_requests(text):
    assert not is_keep_request(text)


@pytest.mark.parametrize("text", [
    "Oye, ¿te acuerdas de cómo se llama mi perro y dónde vivo?", "¿Recuerdas dónde trabajo?", "Tu te souviens de mon chat ?",
    "Erinnerst du dich, wie meine Schwester heißt?", "Vous vous souvenez de moi ?",
])
def test_a_question_whether_one_remembers_is_declined_so_the_second_reader_never_keeps_it(text):
    # a new user's "¿te acuerdas de cómo se llama mi gato…?" was kept into core memory by the second reader (session 48)
    assert declined_request(text) and not is_keep_request(text)


@pytest.mark.parametrize("text, fact", [
    # forms blind13 showed the grammar lacked (our own sentences)
    ("Meine Tochter heißt Lotte und sie ist sieben. Merkst du dir das?", "Lotte"),
    ("i'm diabetic fyi, keep that in mind whenever you talk about desserts", "diabetic"),
    ("est ce que tu pourrais garder quelque part que je travaille à Lyon ?", "Lyon"),
    ("mon numéro de casier c'est le 212, tu me le gardes ?", "212"), ("Mon frère s'appelle Hugo → à retenir stp", "Hugo"),
    ("Mémo pour toi : je suis gauchère", "gauchère"), ("una cosa che vorrei tenessi presente: sono celiaca", "celiaca"),
    ("me faz um favor e anota aí: meu CEP é 01310-100", "01310-100"), ("내 동생 이름 민호여 까먹지 말고 기억혀", "민호"),
    ("우리 집 현관 비번 4821 킵해줘", "4821"), ("내 생일은 5월 2일! 기억하기 약속~", "5월 2일"),
    ("我对猫毛过敏，你给我记在脑子里", "猫毛"), ("帮我做个备忘，周五下午三点牙医", "牙医"), ("我家门禁密码是7788 你帮我记着 回头忘了问你", "7788"),
    ("我换公司了 新公司在望京 你记下来 我怕哪天又忘了", "望京"),
])
def test_the_forms_blind13_found_are_requests(text, fact):
    assert_kept(text, fact)


@pytest.mark.parametrize("text", [
    "Erinnerst du dich daran? Wir waren damals in Wien.", "Pro tip: write down every idea the moment you have it",
    "Un consejo: anota siempre los gastos del mes", "si un jour t'es triste, rappelle-toi que ça passe",
    "ricordati che meriti di riposare anche tu", "记住，陌生人的链接千万别点", "记得去年我们一起去爬山吗，那天好冷",
    "Wenn du je in Hamburg bist, merk dir: Fischbrötchen am Hafen",
])
def test_near_forms_of_blind13_are_still_not_requests(text):
    assert not is_keep_request(text)


@pytest.mark.parametrize("text", [
    "I still remember the first concert I went to, it was so loud", "je me souviens de la maison de mon enfance à Brest",
    "Ich erinnere mich noch an unseren Hund Bello", "me acuerdo de las tardes en casa de mi abuela",
    "mi ricordo ancora il profumo del pane di mia nonna", "ainda me lembro do cheiro da praia em Natal",
])
def test_the_users_own_memory_is_declined_so_the_second_reader_never_keeps_it(text):
    assert_declined(text)


@pytest.mark.parametrize("text", [
    "ya no me acuerdo de nada, mi nieto se llama Pablo, apúntalo", "Je me souviens jamais de son anniversaire",
])
def test_not_remembering_is_no_memory_told(text):
    from agent.keep_grammar import _TOLD_NOT_ASKED

    assert not _TOLD_NOT_ASKED.search(text)


@pytest.mark.parametrize("text, fact", [
    # forms blind14 showed the grammar lacked (our own sentences)
    ("Ich heiße Maximilian, aber sag Max und merk dir das für später", "Max"),
    ("Ich arbeite jetzt bei Siemens. Magst du dir das merken?", "Siemens"), ("Meine Katze heißt Mimi, den Namen bitte merken", "Mimi"),
    ("would you mind holding onto my passport number? it's X1234567", "X1234567"),
    ("Just so you've got it for next time, my son is called Theo", "Theo"), ("cariño apunta que el lunes tengo médico", "médico"),
    ("ey guarda q mi perro se llama Toby", "Toby"), ("Ça serait cool que tu retiennes que je fais du judo", "judo"),
    ("j'ai eu mon bac !!! garde-le en mémoire, 4 juillet", "4 juillet"), ("Vorrei che prendessi nota del mio codice: 4471", "4471"),
    ("ti chiedo solo di ricordare che sono astemia", "astemia"), ("tu segnati che venerdì vado a Torino", "Torino"),
    ("Ascolta bene e ricordati: il mio cane si chiama Fido", "Fido"), ("guarda esse segredo contigo: vou pedir demissão", "demissão"),
    ("mete isso na memória: a Rita é vegana", "vegana"), ("우리 딸 생일 6월 9일이여 기억해두거라", "6월 9일"),
    ("내일 면접 결과 나와. 기억했다가 모레 물어봐줘", "면접"), ("顺便记一下我的车位号 B2-118", "B2-118"),
    ("请帮我备注一下：我女儿对花生过敏", "花生"), ("拜托帮我记个事，我下周三去体检", "体检"),
    ("if you want, remember that I'm left-handed", "left-handed"),
])
def test_the_forms_blind14_found_are_requests(text, fact):
    assert_kept(text, fact)


@pytest.mark.parametrize("text", [
    "Vielleicht im Winter immer Winterreifen nehmen, merk dir das", "Im Zweifel nie ohne Helm fahren, merk dir das!",
    "Courage, tu vas y arriver, ne l'oublie jamais", "If you want to sleep better, write down your worries before bed",
    "Si tu veux progresser, note tes erreurs chaque soir", "lascia stare, non segnare niente",
    "Merkst du dir eigentlich alles, was ich sage?",
])
def test_near_forms_of_blind14_are_still_not_requests(text):
    assert not is_keep_request(text)


@pytest.mark.parametrize("text", [
    "please don't save this, I'm only venting", "bitte nicht speichern, war nur ein Scherz", "no lo apuntes, era broma",
    "I forgot my umbrella at work again", "mi sono scordata di nuovo le chiavi", "I need to remember to buy milk later",
])
def test_a_keeping_verb_negated_and_the_users_own_forgetting_are_declined(text):
    assert_declined(text)


@pytest.mark.parametrize("text, fact", [
    # forms blind15 showed the grammar lacked (our own sentences)
    ("ayy remember my cat is called Biscuit ok", "Biscuit"),
    ("no sé si te lo conté pero recuerda que soy zurdo", "zurdo"),
    ("Je fais du yoga le jeudi. Tu peux noter ça dans un coin de ta tête ?", "yoga"),
    ("Ma sœur s'appelle Léa, tu peux t'en souvenir ?", "Léa"), ("Mets-toi ça de côté : mon code postal est 29000", "29000"),
    ("tienimelo a mente che sono allergico alle noci", "noci"), ("Fica sabendo e não esquece: eu calço 42", "42"),
    ("Queria que anotasses que o meu gato se chama Tareco", "Tareco"), ("eu sempre esqueço então anota tu: o código é 3321", "3321"),
    ("나 이제 민수라고 불러줘 그거 기억하구", "민수"), ("제 차량 번호는 12가 3456입니다 보관 부탁드려요", "12가 3456"),
    ("나 우유 못 마시는 거 알아두고 추천할 때 빼줘", "우유"),
])
def test_the_forms_blind15_found_are_requests(text, fact):
    assert_kept(text, fact)


@pytest.mark.parametrize("text", [
    "别伤心了，记住，明天会更好，咱们一起努力", "no sé si te acuerdas de mí, nos vimos en Cádiz",
])
def test_near_forms_of_blind15_are_still_not_requests(text):
    assert not is_keep_request(text)


def test_the_users_own_remembering_in_chinese_is_declined():
    text = "我到现在都记得第一次去北京看升旗"
    assert_declined(text)
