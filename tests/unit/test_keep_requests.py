"""'Please remember' by grammar, in nine languages: requests and the traps that must not fire, the
kept note (request words dropped, dates resolved), corrections, the keep ledger, and the prompt
keeping the newest core-memory notes."""
import json
from datetime import datetime, timezone

import pytest

from agent.keep_corrections import corrects
from agent.keep_requests import is_keep_request, keep_action, keep_note
from agent.prompt_builder import PromptSection, build_prompt, fit_newest_lines, HistoryWindow
from agent.providers.fake import ScriptedChatModel, replies
from agent.relative_time import resolve_note_dates, resolve_relative_times
from bench.keep_bench import DATA, run
from persona.service import NexusService

NOW = datetime(2026, 3, 4, 10, tzinfo=timezone.utc)  # a Wednesday


def assert_kept(text: str, fact: str) -> None:
    """`text` is a request to keep something, and its note holds `fact`."""
    assert is_keep_request(text)
    assert fact in keep_note(text, "Ken", NOW)


@pytest.mark.parametrize("text", [
    # en
    "Remember, my sister's birthday is March 3rd.", "Remind me that the bins go out on Mondays.",
    "Can you keep track of my reading streak? It's 40 days.", "could u please remember that im allergic to kiwi",
    "I need you to note that my shift starts at 6.", "My bike lock code is 2468, don't forget it!",
    # ja
    "覚えといてね、私の好きな色は緑。", "職場の最寄り駅は中野。メモしておいてください。", "忘れないでね、来週は母の日だよ。",
    "これ記録してもらえる？血圧は120だった。",
    # zh
    "帮我记一下，我周四要交房租。", "别忘了我不吃辣。", "你要记住我的生日是六月八号哦。", "提醒我后天去取快递。",
    # ko
    "내 차 번호는 12가 3456이야. 기억해 줘.", "메모해 둬: 다음 주 금요일에 회식.", "잊지 마세요, 저는 우유를 못 마셔요.",
    # es
    "Recuerda que mi coche es azul.", "¿Puedes apuntar que el sábado tengo boda?", "No te olvides de que odio el cilantro.",
    # fr
    "Souviens-toi que je suis née en avril.", "Tu pourrais noter que mon train part à 8h ?", "N'oublie pas : mon chat s'appelle Tigrou.",
    # de
    "Merk dir, dass mein Bruder Tom heißt.", "Vergiss nicht: ich habe am Montag frei.", "Kannst du dir merken, dass ich Tee mag?",
    # it
    "Ricordami che giovedì devo restituire tre libri alla biblioteca.", "Puoi segnarti che il mio gatto si chiama Mimì?",
    "Non dimenticare: sabato c'è la festa di Luca.", "Vorrei che ti ricordassi il mio numero: 3341.",
    # pt
    "Lembra que minha irmã chega sexta às 18h.", "Anota aí: a senha do wifi é laranja42.",
    "Me faz um favor? Anota que o aluguel vence dia 5.", "Preciso que você lembre que sou alérgica a camarão.",
    # a request after another sentence
    "Long day. Anyway, remember that my locker is 12.",
    # mixed: by the request's language
    "Don't forget: 明日は歯医者の予約。",
])
def test_requests_are_recognised(text):
    assert is_keep_request(text)


@pytest.mark.parametrize("text", [
    # reminiscence
    "I still remember the day we met.", "昔の家のこと、まだ覚えてる。", "我记得那家店的味道。", "그 여름이 기억나.",
    "Je me souviens de notre premier appartement.", "Me acuerdo de mi primer día de clase.",
    "Ich erinnere mich an den Schnee im Dezember.",
    # questions about memory
    "Will you remember this conversation tomorrow?", "Do you remember what my job is?", "Remember when we joked about penguins?",
    "私の誕生日、覚えてる？", "你还记得我叫什么吗？", "내 생일 기억해?", "¿Recuerdas mi nombre?", "Tu te souviens de ma sœur ?",
    "Erinnerst du dich an meine Katze?", "Remind me, what did I say my locker was?",
    # quotes and reported speech
    "My mom always says 'don't forget your umbrella'.", "She told me to remember the password.",
    "母に「宿題忘れないでね」って言われた。", "老师让我们记住这个公式。", "엄마가 \"잊지 마\"라고 했어.",
    "Mi padre siempre dice \"no olvides sonreír\".", "Il m'a dit de noter son numéro.", "Er hat gesagt, ich soll mir das merken.",
    # hedges, negations, others, statements with the trigger words
    "Mi ricordo quando andavamo al mare.", "Ricordi quella volta al lago?", "Ricorda a mio marito di comprare il pane.",
    "Tieni presente che potrei sbagliarmi, ma il museo chiude il martedì.", "Scrivi a Marta che arrivo tardi.",
    "Lembro quando a gente ia à praia.", "Você lembra do meu cachorro?", "Lembra o meu irmão de trazer o carregador.",
    "Lembrar disso me deixa feliz.", "Escreve pra minha irmã que eu chego tarde.",
    "Keep in mind I'm just guessing here, but it might rain.", "Note that this is just my opinion.",
    "You don't need to remember this.", "これは覚えなくていいよ。", "这个不用记。", "이건 기억 안 해도 돼.",
    "No hace falta que lo apuntes.", "Pas besoin de retenir ça.", "Das musst du dir nicht merken.",
    "Please remind my husband to call the plumber.", "I forgot my keys again.", "The note on the fridge fell off.",
    "J'ai eu une bonne note.", "Das ist merkwürdig.", "메모장을 샀어.", "メモ帳が欲しい。",
])
def test_traps_are_not_requests(text):
    assert not is_keep_request(text)


def test_the_bench_set_meets_the_targets_in_every_language():
    result, _ = run(json.loads(DATA.read_text("utf-8")))
    for part in ("dev", "heldout"):
        for language, scores in result[part].items():
            assert scores["precision"] >= 90 and scores["recall"] >= 90, (part, language, scores)
        assert result[part]["overall"]["precision"] >= 95 and result[part]["overall"]["recall"] >= 90


@pytest.mark.parametrize("text, user, note", [
    ("Please remember that my locker is 317.", "Ken", '- 2026-03-04 Ken said: "My locker is 317."'),
    ("Remind me to call the vet tomorrow morning.", "Ken",
     '- 2026-03-04 Ken said: "Call the vet on the morning of 5 March 2026."'),
    ("来週の金曜に健康診断があるから、覚えといてね。", "ハルカ", "- 2026-03-04 ハルカさんの言葉:「2026年3月13日（金）に健康診断がある」"),
    ("帮我记一下：我下周二要去看牙医。", "王磊", "- 2026-03-04 王磊说：「我2026年3月10日（周二）要去看牙医。」"),
    ("내일 병원 예약 있어. 잊지 마!", "민준", '- 2026-03-04 민준 님의 말: "2026년 3월 5일 병원 예약 있어."'),
    ("Recuerda que mañana tengo dentista.", "Ana", '- 2026-03-04 Ana dijo: "El 5 de marzo de 2026 tengo dentista."'),
    ("Segnati che domani alle 9 ho il dentista.", "Giulia", '- 2026-03-04 Giulia ha detto: "Il 5 marzo 2026 alle 9 ho il dentista."'),
    ("Não esquece que a reunião é sexta que vem.", "Ana",
     '- 2026-03-04 Ana disse: "A reunião é na sexta-feira, 6 de março de 2026."'),
    ("N'oublie pas que ma mère arrive demain.", "Camille", "- 2026-03-04 Camille a dit : « Ma mère arrive le 5 mars 2026. »"),
    ("Merk dir: Ich bin nächste Woche im Urlaub.", "Jonas",
     "- 2026-03-04 Jonas sagte: „Ich bin die Woche vom 9. März 2026 im Urlaub.“"),
])
def test_the_note_keeps_the_users_words_without_the_request_and_with_dates(text, user, note):
    assert keep_note(text, user, NOW) == note


def test_a_request_with_nothing_but_this_keeps_the_message_before_it():
    earlier = [("My gym locker is 4411.", NOW)]
    action = keep_action("Please remember that.", earlier, "Ken", NOW)
    assert action is not None and '"My gym locker is 4411."' in action.line


def test_asuka_stays_a_name_and_tomorrow_is_a_date():
    said = NOW.date()
    assert resolve_note_dates("明日香と明日会う", said, "ja") == "明日香と2026年3月5日、会う"
    assert resolve_relative_times("明日香が来た", said) == "明日香が来た"
    assert resolve_note_dates("今日子と今日遊んだ", said, "ja").startswith("今日子と2026年3月4日")
    assert resolve_note_dates("next week", said, "en") == "in the week of 9 March 2026"
    assert resolve_note_dates("Guten Morgen, morgen", said, "de") == "Guten Morgen, am 5. März 2026"


@pytest.mark.parametrize("note, message", [
    ("My dentist appointment is on Thursday at 4pm", "Oh wait, it's been moved to Friday, same time."),
    ("金曜日に歯医者", "やっぱり金曜日じゃなくて土曜日だった。"),
    ("我的储物柜是317号", "不好意思，我记错了，储物柜是318号。"),
    ("회의는 목요일 오후 2시야", "미안, 회의가 금요일로 바뀌었어."),
    ("La cita es el jueves", "Perdón, la cita cambió al viernes."),
    ("Ma réunion est lundi à 14h", "En fait, la réunion est à 15h."),
    ("Mein Termin ist am Dienstag", "Sorry, der Termin wurde auf Mittwoch verschoben."),
])
def test_a_correction_of_the_note_revises_it(note, message):
    assert corrects(note, message)


@pytest.mark.parametrize("note, message", [
    ("My locker is 317", "Actually, I love pizza."),
    ("My dentist appointment is on Thursday", "Actually, the weather is lovely today."),
    ("ハナの誕生日は4月1日", "やっぱりカレーにしよう。"),
    ("我的储物柜是317号", "其实我今天很累。"),
    ("Mein Spind ist 22", "Eigentlich mag ich Kaffee lieber."),
    ("My locker is 317", "My locker is 317, right."),  # no correction said
])
def test_other_messages_do_not_revise_the_note(note, message):
    assert not corrects(note, message)


def test_actually_after_a_kept_note_changes_nothing():
    earlier = [("Please remember my locker is 317.", NOW)]
    assert keep_action("Actually, I love pizza.", earlier, "Ken", NOW) is None
    revised = keep_action("Sorry, it's actually 318.", earlier, "Ken", NOW)
    assert revised is not None and revised.old_line and "318" in revised.line


def _service(data_dir, clock, model):
    return NexusService(data_dir, clock=clock, model_factory=lambda s, k, p: model,
                        searcher=lambda q, now: __import__("agent.retrieval", fromlist=["x"]).RetrievalResult(True, "t"),
                        after_turn_work=False)


def test_a_request_left_by_a_killed_turn_lands_once_on_the_next_open(data_dir, clock):
    service = _service(data_dir, clock, ScriptedChatModel(replies("ok")))
    session = service.session("Ark")  # the ledger starts here
    session.chat_log.append("USER", "Ken", "Please remember that my locker is 317.")  # then the app was killed
    again = _service(data_dir, clock, ScriptedChatModel(replies("ok")))
    core = again.read_memory("Ark", "core_memory")
    assert core.count("My locker is 317.") == 1
    assert any("kept what you asked" in n for n in again.pop_notices())
    third = _service(data_dir, clock, ScriptedChatModel(replies("ok")))
    assert third.read_memory("Ark", "core_memory") == core  # handled once


def test_a_turn_records_its_request_so_a_reopen_does_not_keep_it_twice(data_dir, clock):
    service = _service(data_dir, clock, ScriptedChatModel(replies("Noted.")))
    events = list(service.send("Ark", "Don't forget: my locker is 317."))
    assert [e.text for e in events if e.kind == "tool"] == ["🛠️ Kept in core memory"]
    again = _service(data_dir, clock, ScriptedChatModel(replies("ok")))
    assert again.read_memory("Ark", "core_memory").count("My locker is 317.") == 1


def test_the_prompt_keeps_the_newest_core_memory_notes_and_the_user_is_told(data_dir, clock):
    count = lambda text: len(text.split())  # noqa: E731
    notes = "\n".join(f'- 2026-03-{d:02d} Ken said: "Note number {d} is here."' for d in range(1, 29))
    text, left_out = fit_newest_lines(notes, 60, count)
    assert "Note number 28" in text and "Note number 1 " not in text and left_out > 0
    assert text.splitlines() == notes.splitlines()[left_out:]
    prompt = build_prompt([PromptSection("core_memory", "Core memory", notes, newest_first=True)],
                          HistoryWindow((), ""), [], "hi", {"core_memory": 60}, count)
    assert "Note number 28" in prompt.messages[0].content and prompt.left_out["core_memory"] == left_out

    model = ScriptedChatModel(replies("Noted."))
    service = _service(data_dir, clock, model)
    service.save_memory("Ark", "core_memory", "\n".join(
        f'- 2026-01-{d % 28 + 1:02d} Ken said: "Old note {d} about something I once mentioned at length."'
        for d in range(200)))
    list(service.send("Ark", "Please remember that my newest locker is 999."))
    list(service.send("Ark", "Thanks!"))
    system = model.calls[-1][0][0].content
    assert "My newest locker is 999." in system and "Old note 199 " in system and "Old note 0 " not in system
    [notice] = [n for n in service.pop_notices() if "no longer fit" in n]
    assert "stay in core memory" in notice


@pytest.mark.parametrize("text", ["Remembering all those names is hard.", "Writing down my goals helps me focus.",
                                  "Noting things down is my habit.", "Recordar esos días me hace feliz."])
def test_a_verb_that_is_the_sentences_subject_asks_nothing(text):
    assert not is_keep_request(text)


@pytest.mark.parametrize("note, message", [
    ("Please remember my locker is 317.", "Sorry, it took me 5 minutes to find it."),
    ("Merk dir bitte, dass mein Zahnarzttermin am Montag ist.", "Das Wetter ist doch schön heute."),
])
def test_a_marker_and_a_number_or_a_german_noun_correct_nothing(note, message):
    assert keep_action(message, [(note, NOW)], "Ken", NOW) is None


@pytest.mark.parametrize("text", [
    "Just remember to pause, reflect, and take care of yourself.",  # advice: what to do, not what to keep
    "Don't forget to prepare emotionally, since the wait can be hard.",
    "It's so crucial to find a little peace and remember life's beauty.",  # a verb the clause before goes on with
    "Events like these really energize us and remind us we can make a difference.",
])
def test_advice_and_a_clause_going_on_are_not_requests(text):
    assert not is_keep_request(text)


@pytest.mark.parametrize("text", [
    "Remember to remind me about the dentist tomorrow.", "Oh and remember I start the night shift next week.",
    "Thanks, and remember that my exam is on Friday.", "Don't forget to ask me how the exam went on Monday.",
])
def test_requests_after_and_or_to_tell_the_user_still_are(text):
    assert is_keep_request(text)


@pytest.mark.parametrize("text", [
    "Keep in mind it may get crowded on weekends, so get there before ten.",  # a warning and what to do about it
    "Heads up, note that the ferry might be cancelled, so check the website.",
    "Bear in mind that there could be delays on the line tonight.",  # the world, what might come about
    "Remember, you're allowed to say no sometimes.",  # about the listener only
    "Don't forget, trust your gut.",
    "Keep in mind that nobody gets it right the first time.",  # a truth of everyone
    "Keep in mind I could honestly be mistaken, but the museum is free on Sundays.",  # a hedge with an adverb
    "Note that I'm no expert, but the rash looks mild.",
    "Keep in mind this is just my impression of the place.",
])
def test_advice_warnings_and_hedges_are_not_requests(text):
    assert not is_keep_request(text)


@pytest.mark.parametrize("text, fact", [
    ("Keep in mind I might switch jobs in the spring.", "switch jobs"),  # "might", but of the user
    ("Note that my sister may visit in April, so we'll be out a lot.", "sister"),
    ("Remember I'm off dairy now, so skip the cheese in any recipe ideas.", "dairy"),  # an imperative, of the user's
    ("Please note we're moving, so change my city to Porto.", "Porto"),
    ("Remember that it's our anniversary on the 12th.", "It's our anniversary"),  # "it" opens the fact, kept
    ("Note that this is my new email: ken@example.org.", "This is my new email"),
])
def test_requests_with_might_so_or_it_keep_the_users_fact_whole(text, fact):
    assert_kept(text, fact)


@pytest.mark.parametrize("text, fact", [
    ("remmber that the gym closes at 9 on sundays", "gym"),  # a typo of the verb
    ("rmbr the wifi at my parents' is peachtree5", "peachtree5"),
    ("i never get this right so pls remember: bins are collected on fridays", "bins"),  # "so please" asks
    ("the dentist moved my cleaning to may 2nd don't let me forget", "cleaning"),  # at the end, no stop before it
    ("If the lease gets renewed we stay until 2028, keep it in the back of your mind.", "2028"),
    ("could you store the fact that my bike is a blue Brompton?", "Brompton"),
    ("put in your notes: Aiko's birthday is 11 July", "Aiko"),
    ("hang on to this for me, the locksmith's number is 555-0199", "555-0199"),
    ("could you not forget that my train is the 7:15?", "7:15"),
])
def test_more_ways_to_ask_are_requests(text, fact):
    assert_kept(text, fact)


@pytest.mark.parametrize("text", [
    "remember you don't have to answer me right away 😊",  # what the listener may do
    "I'll never forget how kind you were to me.",  # "not forget" told, not asked
    "She says I should hold onto this ring forever.",
    "I keep it in the back of my mind all the time.",
])
def test_more_traps_are_not_requests(text):
    assert not is_keep_request(text)


@pytest.mark.parametrize("text, fact", [
    ("long day. before I forget, write down that the vet moved Bruno's jab to the 14th, ok?", "Bruno"),  # a tag, not a question
    ("would you be able to remember that I take my coffee black?", "black"),
    ("I'd appreciate it if you could remember my nephew's name is Idris.", "Idris"),
    ("file it away: my building's door code is 8812", "8812"),
    ("make a mental note that I'm off work all of August", "August"),
    ("can you keep a record of my runs? today was 7k", "7k"),
    ("for future reference, remember that I can't stand horror films", "horror"),
    ("save my sister's birthday for me, it's 2 June", "2 June"),
])
def test_indirect_and_tagged_requests_are_requests(text, fact):
    assert_kept(text, fact)


@pytest.mark.parametrize("text", [
    "keep in mind I'm just curious, but do you ever get bored?",  # a hedge on a question
    "Hypothetically, keep in mind that we'd have to move, would you still say yes?",
    "Remember that movie we watched, right?",  # a tag after a question stays a question
])
def test_curious_and_hypothetical_are_not_requests(text):
    assert not is_keep_request(text)


@pytest.mark.parametrize("text, fact", [
    ("it would be great... actually it'd help me if you kept in mind that I'm on call every other weekend", "on call"),
    ("I'd like it if you remembered that my daughter is called Noor", "Noor"),
    ("commit it to memory please: the Wi-Fi at work is Orchard-5G", "Orchard-5G"),
    ("keep this in your head: Dad's surgery is on the 18th", "surgery"),
    ("for future reference, I take my tea with oat milk", "oat milk"),
    ("so you have it on file, my passport number ends in 4471", "4471"),
    ("could you add this to what you know about me: I'm a twin", "twin"),
    ("please you can remember my husband name is Farid", "Farid"),
    ("can you make sure you don't lose track of my MOT date, 3 October", "3 October"),
    ("what I told you this morning about Gran's address - store that", "Gran's address"),
])
def test_the_many_ways_to_ask_keep_the_fact(text, fact):
    assert_kept(text, fact)


@pytest.mark.parametrize("text", [
    "I remembered to take my pills today!",  # a past verb is told, not asked
    "Kept in mind what you said, and it helped.",
    "My mum told me: commit this to memory before the exam.",  # someone else's words
    "I told him to keep it in his head.",
])
def test_past_verbs_and_others_words_are_not_requests(text):
    assert not is_keep_request(text)


@pytest.mark.parametrize("text, fact", [
    ("my pharmacy is the one on Cole St, write that down for me?", "Cole St"),  # an imperative asked with "?"
    ("Hello, please you note my daughter start school on 2 September.", "2 September"),
    ("bookmark it in your brain: the boiler man is Gareth", "Gareth"),
    ("keep it on record that I paid the deposit, £300", "£300"),
    ("Our wedding is on 20 June. Remember that, will you?", "20 June"),
])
def test_asked_with_a_question_mark_or_in_other_words(text, fact):
    assert_kept(text, fact)


@pytest.mark.parametrize("text", [
    "Remember that night at the lake?",  # a question about memory, still
    "you remember my sister's name, right?",
    "Remember the band we saw in Leeds, yeah?",
])
def test_questions_about_memory_stay_questions(text):
    assert not is_keep_request(text)


@pytest.mark.parametrize("text, fact", [
    ("keep it for later: the spare bike key is in the blue tin", "blue tin"),
    ("Hello my friend, please to note that my visa ends in March.", "visa"),
    ("record my weight today, 71.5 kg", "71.5"),
    ("We're getting a puppy on Friday - remember that, yeah?", "puppy"),  # a pointer, then the tag
    ("dude remember my locker is 118", "118"),
    ("Would you mind logging that I slept 5 hours?", "5 hours"),
])
def test_pointers_vocatives_and_gerunds_after_mind(text, fact):
    assert_kept(text, fact)


@pytest.mark.parametrize("text", [
    "If we stopped talking for a year, would you remember me?",  # a conditional wonders
    "If I changed my name, would you remember the old one?",
])
def test_a_conditional_would_you_wonders(text):
    assert not is_keep_request(text)


@pytest.mark.parametrize("text, fact", [
    ("my physio is Dr. Mensah now, remember that for me?", "Mensah"),  # "for me" asks, with the question mark
    ("from now on remember I take the 8:10 bus", "8:10"),
    ("do me a favour and note that the car is booked in for Tuesday", "car"),
    ("yo remember my gamertag is NightOwl77", "NightOwl77"),
    ("can you keep a note that the Airbnb code is 4550", "4550"),
    ("keep track that I walked 12k steps today", "12k"),
])
def test_favours_from_now_on_and_for_me(text, fact):
    assert_kept(text, fact)


def test_remember_that_with_a_question_mark_alone_still_asks_whether_one_does():
    assert not is_keep_request("We went to Rome in 2019, remember that?")


@pytest.mark.parametrize("text, fact", [
    # es
    ("¿Me harías el favor de recordar que mi hija se llama Inés?", "Inés"),
    ("Quisiera que anotes que el seguro del coche vence en mayo.", "seguro"),
    ("Guárdate esto: el wifi de la oficina es Lince2024", "Lince2024"),
    ("che, acordate que mi hermano vuelve de Rosario el lunes", "Rosario"),
    ("Mi clave del portal es 8812, tenlo presente.", "8812"),
    # fr
    ("Pourriez-vous garder en mémoire que mon mari s'appelle Karim ?", "Karim"),
    ("j'aimerais que tu retiennes que je travaille de nuit le lundi", "de nuit"),
    ("Ça te dérangerait de noter que mon train arrive à 18h ?", "18h"),
    ("mon coiffeur c'est Lucien, garde ça dans un coin de ta tête", "Lucien"),
    # de
    ("Es wäre lieb, wenn du dir merken könntest, dass ich laktoseintolerant bin.", "laktoseintolerant"),
    ("Kannst du dir bitte für später merken, dass Oma am 3. Mai Geburtstag hat?", "Oma"),
    ("Ich möchte, dass Sie sich Folgendes merken: meine Kundennummer ist 5521.", "5521"),
    ("vergiss bitte nicht, dass ich ab März in Köln arbeite", "Köln"),
    ("Behalt bitte im Hinterkopf, dass mein Bruder kein Fleisch isst.", "Fleisch"),
])
def test_more_ways_to_ask_in_spanish_french_and_german(text, fact):
    assert_kept(text, fact)


@pytest.mark.parametrize("text", [
    "Ten en cuenta que el museo cierra pronto, yo que tú iría por la mañana.",  # what I would do in your place
    "Retiens bien ça : tu mérites d'être heureux.",  # the listener alone
    "Merk dir eins: du schaffst das!",
    "Bitte speicher das nicht, das war nur ein Test.",  # the negation after its object
    "Rappelle-moi, c'est quoi le nom de ce film déjà ?",  # asks to be told
])
def test_advice_negation_and_asking_to_be_told_are_not_requests(text):
    assert not is_keep_request(text)


@pytest.mark.parametrize("text, fact", [
    ("来月から在宅勤務になること、頭に入れておいてくれたら助かります", "在宅勤務"),  # a wish that asks
    ("妹の名前はみのり。覚えといて🙏", "みのり"),  # an emoji after the request
    ("大事なことだから残しといて：車検は6月", "車検"),
    ("麻烦您记一下，我女儿在三中读书", "三中"),
    ("这个你得记牢：我对芒果过敏", "芒果"),
    ("快递柜取件码 5521，你替我记着", "5521"),
    ("以后叫我阿杰就行，别忘了哈", "阿杰"),  # "叫我" here is "call me", not someone's words
    ("다음 주 목요일에 면접 있는 거 메모 좀 해줘", "면접"),
    ("내 차 번호 12가 3456 기록해 줄 수 있어?", "3456"),
    ("제 주치의는 박 선생님입니다. 기억해 두십시오.", "박 선생님"),
])
def test_more_ways_to_ask_in_japanese_chinese_and_korean(text, fact):
    assert_kept(text, fact)


@pytest.mark.parametrize("text", [
    "最近忙しすぎて、昨日何食べたか覚えてないんだよね",  # 覚えてない tells
    "彼に私の誕生日を覚えといてほしいんだけど、どう伝えたらいいかな？",  # how to ask someone else
    "@小王 记得把会议纪要发我",  # asks the person it names
    "手机里的提醒我全关了",  # "I turned the reminders off"
    "힘들 땐 꼭 기억해, 넌 잘하고 있어",  # the listener alone
    "밤에 운전할 때 전조등 켜는 거 잊지 마",  # what the listener is to do
])
def test_more_traps_in_japanese_chinese_and_korean(text):
    assert not is_keep_request(text)


@pytest.mark.parametrize("text, fact", [
    ("Guárdame esto: la talla de mi hijo es la 10", "talla"),
    ("Le ruego que guarde en su memoria que soy diabética.", "diabética"),
    ("Dis, tu pourrais noter que ma fille s'appelle Lou ?", "Lou"),  # "Dis," calls, it reports nothing
    ("Il faudrait que tu retiennes que je pars à Lyon en mai", "Lyon"),
    ("mon numéro de client c'est 8812, mémorise-le stp", "8812"),
    ("Kannste dir merken, dass ich Montag frei hab?", "Montag"),
    ("speicher mal ab: mein Friseur heißt Enzo", "Enzo"),
    ("So you know for next time, I'm allergic to wasps", "wasps"),
    ("把这个记到你小本本上：我周五要体检", "体检"),
])
def test_the_forms_a_third_round_of_blind_authors_found(text, fact):
    assert_kept(text, fact)


@pytest.mark.parametrize("text, words", [
    ("父の誕生日は9月3日なので、覚えておいてもらえますか", "父の誕生日は9月3日"),  # no "な" of なので, no "か"
    ("私、猫アレルギーなんです。覚えておいていただけると嬉しいです", "私、猫アレルギーなんです。"),
    ("妹の名前はさくらです。どうか覚えておいてください。", "妹の名前はさくらです。"),
    ("覚えといて〜 僕は紅茶派", "僕は紅茶派"),
    ("快递柜密码 6631，你先帮我存着", "快递柜密码 6631"),
    ("我们家狗叫可乐 你记住啦", "我们家狗叫可乐"),
    ("내 사물함 번호 52번!! 적어놔줘", "내 사물함 번호 52번!!"),
])
def test_the_note_keeps_no_pieces_of_the_request(text, words):
    note = keep_note(text, "Ken", NOW)
    assert note.endswith(("「" + words + "」", '"' + words + '"')), note


@pytest.mark.parametrize("text", [
    "Retiens bien ça : tu n'as pas besoin d'avoir réponse à tout, tu m'écoutes déjà.",  # what the listener may do,
    "Merk dir eins: du musst nicht alles wissen, du hörst mir zu und das reicht.",  # whoever else is in it
])
def test_what_the_listener_may_do_is_no_fact_in_french_and_german_either(text):
    assert not is_keep_request(text)


@pytest.mark.parametrize("text, fact", [
    # the verbs' other forms and regional ones (written for session 46, after the blind4 part was read)
    ("Anótate esto: el gimnasio cierra a las 9", "gimnasio"), ("Mi sobrino se llama Iker. Recuérdalo", "Iker"),
    ("q no se te olvide: el lunes entrego el informe", "informe"), ("registra que mi talla es la M", "talla"),
    ("Oublie pas que mon frère arrive le 12", "frère"), ("tu me retiens que le code du portail c'est 2291 ?", "2291"),
    ("Garde ça pour la prochaine fois : je suis végétarien", "végétarien"),
    ("On a fixé la date ! 🎉 Retiens bien : le 4 octobre", "4 octobre"),
    ("dis donc mets-toi ça dans la tête : le jeudi je suis au bureau", "bureau"),
    ("Bitte speichere: Der Müll wird am Dienstag abgeholt.", "Müll"), ("merk da des, mei Bruder heißt Sepp", "Sepp"),
    ("Chasch dir merke, dass ich kei Fleisch iss?", "Fleisch"), ("Trag dir ein: Elternabend am Mittwoch", "Elternabend"),
    ("Ich bitte Sie, sich zu merken, dass mein Sohn Paul heißt.", "Paul"),
    ("Wär gut wenn du dir merkst dass ich Vegetarier bin", "Vegetarier"),
    ("Le chiedo cortesemente di ricordare che il mio cognome è Bassi.", "Bassi"),
    ("Il codice del garage è 5521, me lo tieni tu?", "5521"), ("Uè, salvati 'sta cosa: domenica c'è il pranzo dai nonni", "pranzo"),
    ("Una cosa da ricordare: la mia taglia di scarpe è 38", "38"),
    ("Lembra que eu não como glúten, tá?", "glúten"), ("Olá querida, queria que tomasse nota que o meu neto se chama Tiago.", "Tiago"),
    ("mano salva aí que a reunião é às 15h", "reunião"), ("guarda esse número pra mim: 21 99876-1234", "99876-1234"),
    ("Fica guardado aí que eu calço 40", "40"), ("Será que podias guardar isto: a senha do portão é 8080", "8080"),
    ("우리 딸 생일은 3월 9일이다. 기억해도", "3월 9일"), ("나 땅콩 알레르기 있어 잊어불지 말어잉", "땅콩"),
    ("나중을 위해서 적어둘 수 있어? 주차 자리 B2-14", "B2-14"), ("기억해조 나 고수 못 먹어", "고수"),
    ("제 이름은 서연이에요 앞으로 기억해 주시면 좋겠어요", "서연"), ("내 등번호는 7번!! 기억하기로 약속해", "7번"),
    ("우리 강아지 이름은 콩이 저장 ㄱㄱ", "콩이"),
    ("うちの犬の名前はコタロウやけん、覚えとってね", "コタロウ"), ("辛いもん苦手やねん、覚えといてや〜", "辛いもん"),
    ("誕生日は9月2日です。憶えておいてもらえますか。", "9月2日"), ("以后记得我不喝咖啡哈", "咖啡"), ("哎你记下 我的车牌是沪A1234", "沪A1234"),
])
def test_the_verbs_other_and_regional_forms_are_requests(text, fact):
    assert_kept(text, fact)


@pytest.mark.parametrize("text", [
    "Falls ich dir mal meine Nummer gebe, würdest du sie speichern?", "Wenn ich es dir sage, würdest du es dir merken?",
    "我让同事帮我记着开会的事了，他比我靠谱", "我叫妹妹帮我记下来了", "Hoje foi um dia para guardar na memória.",
    "Quella è stata una giornata da ricordare.", "Mi ha detto: «salvati questa cosa», ma non so cosa intendesse.",
    "Tu te souviens de la date de mon anniversaire ?", "Merkst du dir eigentlich alles, was ich sage?",
    "기억해도 소용없어, 이미 끝난 일이야?", "잊어버리지 말라고 엄마가 그랬어",
])
def test_hypotheticals_others_asked_and_days_to_remember_are_not_requests(text):
    assert not is_keep_request(text)


@pytest.mark.parametrize("text, fact", [
    # more of the verbs' forms (written for session 46, after the blind5 part was read)
    ("Heb dir des auf: mei Tochter heißt Vroni", "Vroni"), ("Ich hätte gern, dass du dir meine Adresse merkst: Ringstraße 4", "Ringstraße"),
    ("kanst du dir bitte meine hausnummer merken, 17", "17"), ("Por favor, memorice mi matrícula: 4821 KLM.", "4821"),
    ("¿te puedes guardar que mi hermano vuelve el 9 de mayo?", "9 de mayo"),
    ("me gustaría que te acordaras de que soy celíaca", "celíaca"), ("Bueno, anotá esto: el asado es el domingo", "asado"),
    ("À retenir : mon fils s'appelle Malo.", "Malo"), ("ecoute bien et enregistre : le code c'est 7788", "7788"),
    ("stp souviens toi que je suis allergique aux noix", "noix"), ("Ajoute à tes notes que ma sœur vit à Lille.", "Lille"),
    ("ao tieni a mente che giovedì c'ho il dentista", "dentista"), ("Volevo chiederti di ricordarti che sono vegana", "vegana"),
    ("Per piacere si ricordi che mia figlia si chiama Bice.", "Bice"), ("nn ti scordare ke sabato c'è la cena", "cena"),
    ("metti da parte questa info x favore: il mio volo è alle 7", "volo"), ("Ti va di ricordarti che tifo Torino?", "Torino"),
    ("La revisione scade il 3 aprile, appuntatelo mi raccomando", "3 aprile"),
    ("Queria pedir-te que guardasses uma coisa: o meu cão chama-se Bolinha", "Bolinha"),
    ("Aponta aí que eu calço 39", "39"), ("deixa anotado que a reunião é terça", "reunião"),
    ("Amigo, guarde essa senha por favor: 5512", "5512"),
    ("우리 엄마 생신이 5월 2일이야 기억하구 있어줘", "5월 2일"), ("약 먹는 시간 아침 7시인데 기억 좀 부탁해요", "7시"),
    ("내 생일 11월 3일인 거 꼭 기억해줭", "11월 3일"), ("메모 부탁: 우리집 와이파이 비번 blue77", "blue77"),
])
def test_still_more_forms_of_the_verbs_are_requests(text, fact):
    assert_kept(text, fact)


@pytest.mark.parametrize("text", [
    "Speichern Sie eigentlich unsere Gespräche?", "Merkst du dir eigentlich, was ich dir erzähle?",
    "Tú tranquila, recuerda que no estás sola en esto", "Recuerda que eres más fuerte de lo que crees.",
    "dai che ce la fai, ricordati che sei più forte di quanto pensi", "Ricordati che puoi sempre chiedere aiuto.",
    "Guarda esse sorriso, amiga, que amanhã vai dar tudo certo", "Lembra que você merece descansar.",
    "Guarda esse segredo com você.", "Metti da parte un po' di soldi ogni mese, è un buon consiglio.",
])
def test_advice_to_the_listener_and_questions_are_still_not_requests(text):
    assert not is_keep_request(text)


def test_in_your_memory_is_part_of_the_request_not_advice():
    assert_kept("My niece is called Olivia and she turns six in May, store that in your memory please", "Olivia")


@pytest.mark.parametrize("text, fact", [
    ("Meine Nichte heißt Greta. Merkst du dir das bitte?", "Greta"),  # a question with "bitte" asks
    ("Merkst du dir bitte, dass mein Bruder Jens heißt?", "Jens"),
    ("I'm allergic to shellfish, keep that in mind so you don't suggest paella", "shellfish"),  # what it is kept for
    ("Bin jetzt Vegetarier, merk dir das, damit du mir kein Fleisch mehr vorschlägst", "Vegetarier"),
    ("Ho cambiato lavoro, adesso sono infermiera: ricordatelo quando parliamo di turni", "infermiera"),  # when to recall it
    ("Soy vegana desde enero, recuérdalo cuando me propongas recetas", "vegana"),
    ("我叫王芳，你记住啊", "王芳"), ("Can you keep track of how many runs I do? This week it's 3.", "3"),
    ("Faccio i turni di notte, quindi ricordatelo quando parliamo di orari.", "notte"),  # "so, keep it"
    ("Trabajo de noche, así que recuérdalo cuando hablemos de horarios.", "noche"),
    ("Ich arbeite jetzt nachts, deshalb merk dir das bitte.", "nachts"),
    ("내 혈압약 아침 8시에 묵는다 니 그거 좀 적어놔래이", "8시"),  # Gyeongsang's "-래이" asks; "-래" reports
    # forms blind9 showed the grammar lacked (our own sentences)
    ("mi gata se llama Luna, quédate con el nombre", "Luna"), ("agéndate que el martes tengo pádel", "pádel"),
    ("Mi DNI acaba en 55, ¿me lo guardas?", "55"), ("que no se te vaya a olvidar: el cumple de Sofía es el 4", "Sofía"),
    ("Oye, anótame que mi jefe se llama Ramiro", "Ramiro"), ("Mets ça de côté : mon vol est le 12 à 6 h", "12"),
    ("Rapelle toi que je suis végétarien", "végétarien"), ("fissatelo in testa: il mio gruppo sanguigno è 0+", "0+"),
    ("mettiti da parte questa info: il codice del cancello è 5521", "5521"),
    ("우리 딸 생일 6월 9일이에요. 기억해 주실 수 있을까요?", "6월 9일"), ("내 폰 비번 바뀜 이제 0420 저장해", "0420"),
    ("amg grava aí que meu voo é sexta", "sexta"),
])
def test_a_kind_question_a_purpose_and_a_time_to_recall_still_ask(text, fact):
    assert_kept(text, fact)


def test_the_one_asked_is_left_out_of_the_note():
    assert "du dir" not in keep_note("Meine Nichte heißt Greta. Merkst du dir das bitte?", "Ken", NOW)


@pytest.mark.parametrize("text", [
    "Can you remember how many languages there are?", "Tu peux te souvenir de combien de choses ?",  # what it can do
    "记住，千万别把密码告诉别人", "你记住，你比你想的更坚强", "今天开会让同事帮忙记了笔记",  # a warning, cheering up, someone else
    "Retiens bien ça : dans la vie, il faut toujours essayer.", "Recuerda esto: en la vida hay que arriesgarse.",
    "Merk dir eins: im Leben muss man Geduld haben.", "Ricordati che nella vita bisogna avere pazienza.",
    "Lembra disso: na vida é preciso ter calma.", "Keep that in mind so you never give up.",
    "Remember when we talked about the weather?", "Merkst du dir eigentlich, was ich dir erzähle?",
    "선생님이 기억해 두래.", "la profe nos dijo: acuérdense de traer la bata", "@Marco ricordati che domani c'è la riunione",
])
def test_general_truths_warnings_and_questions_of_ability_are_not_requests(text):
    assert not is_keep_request(text)


def test_a_save_from_an_editor_filled_before_a_kept_note_keeps_the_note(data_dir, clock):
    service = _service(data_dir, clock, ScriptedChatModel(replies("Noted.")))
    shown = service.read_memory("Ark", "core_memory")  # the Memory tab filled
    list(service.send("Ark", "Please remember that my locker is 317."))
    saved = service.save_memory("Ark", "core_memory", shown + "- Ken plays the cello.\n", shown=shown)
    core = service.read_memory("Ark", "core_memory")
    assert "cello" in core and "317" in core and any("317" in line for line in saved.kept_from_app)

