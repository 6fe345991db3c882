"""What steps out of the persona (agent/out_of_character.py), in every supported language: service
talk, AI talk, refusals, talk about the reply, a turn written as someone's, the user's name taken —
and the topics and a friend's offers that must not count."""
import pytest

from agent.out_of_character import breaks_character, claims_user_name


@pytest.mark.parametrize("text", [
    "何かお手伝いできることがあれば、教えてください。", "Is there anything else I can help you with?",
    "As an AI language model, I don't eat.", "私はAI言語モデルなので味はわかりません。", "How can I assist you today?",
    "Let me know if there's anything else you need help with.", "If there is anything I can do, just say so.",
    "何か他にもご質問ください！",  # bench conversation, session 36 (keep-phrasings-dev)
])
def test_help_desk_and_ai_talk_break_character(text):
    assert breaks_character(text)


@pytest.mark.parametrize("text", ["I love winter mornings!", "カレー、いいね！私も作ってみたいな。", "何か質問ある？",
                                  "先生にご質問したの？",
                                  "If there's anything you need for the trip, pack it tonight?",
                                  "Let me help you pack: a light jacket and your charger."])
def test_ordinary_sentences_do_not(text):
    assert not breaks_character(text)


def test_a_line_written_as_someones_turn_breaks_character():
    assert breaks_character("Ken: and then I went home", names=("Ken", "Ark"))
    assert not breaks_character("Ken, that sounds fun!", names=("Ken", "Ark"))


@pytest.mark.parametrize("sentence, user, claims", [
    ("I'm Maya.", "Maya", True),
    ("My name is Maya, nice to meet you.", "Maya", True),
    ("私はハルカです。", "ハルカ", True),
    ("ハルカです！", "ハルカ", True),
    ("I'm Maya's friend.", "Maya", False),
    ("Hi Maya, I'm Ark.", "Maya", False),
    ("ハルカさん、こんにちは。", "ハルカ", False),
    ("I'm happy for you.", "", False),
    ("Certo! Sono Marco.", "Marco", True),
    ("Ciao Marco, sono Ark!", "Marco", False),
    ("Eu sou a Ana.", "Ana", True),
    ("Oi Ana! Sou o Ark.", "Ana", False),
    ("¡Hola! Soy Lucía.", "Lucía", True),
    ("Je suis Julien, et toi ?", "Julien", True),
    ("Je suis contente pour toi, Julien !", "Julien", False),
    ("Ich heiße Jonas.", "Jonas", True),
    ("Hallo Jonas, ich bin Ark.", "Jonas", False),
    ("你好！我是王磊。", "王磊", True),
    ("王磊，你好！", "王磊", False),
    ("네, 나 지수야.", "지수", True),
    ("지수야, 안녕!", "지수", False),
])
def test_a_persona_taking_the_users_name_is_recognised(sentence, user, claims):
    assert claims_user_name(sentence, user) == claims


@pytest.mark.parametrize("text", [
    "How can I help you today?", "Is there anything else I can help you with?", "Feel free to ask me anything!",
    "If you have any other questions, let me know.", "I'm just an AI, so I don't have feelings.",
    "As I'm an AI, I don't have personal preferences.", "何かお手伝いできることがあれば教えてください。",
    "私はAIなので、味はわかりません。", "お気軽にどうぞ！", "有什么可以帮你的吗？", "作为一个人工智能，我没有感情。",
    "무엇을 도와드릴까요?", "저는 AI라서 잘 모르겠어요.", "¿En qué te puedo ayudar?", "Como IA, no tengo opiniones.",
    "Comment puis-je vous aider ?", "Si vous voulez discuter de ce sujet, n'hésitez pas à me dire!", "En tant qu'IA, je n'ai pas de préférences.", "Wie kann ich Ihnen helfen?",
    "Als KI habe ich keine Gefühle.", "Come posso aiutarti oggi?", "Como posso te ajudar hoje?",
    # a form's request for input (session 35)
    "Can you provide more details about the location where Sam was?", "Could you please provide some information?",
    "¿Podrías proporcionarme más detalles sobre tu viaje?", "Pourriez-vous me fournir plus de détails ?",
    "Könnten Sie mir bitte weitere Informationen geben?", "Potresti fornirmi maggiori dettagli?",
    "Poderia me fornecer mais detalhes?",
    # as a chat assistant (session 35)
    "Oh, je suis désolé, mais comme un assistant de chat, je n'ai pas la capacité de réagir.",
    "Como asistente de chat, no puedo opinar.", "Come assistente virtuale non ho gusti.", "As a chatbot, I can't taste food.",
    "Como um assistente de conversa, não tenho opinião.",
    # any other question, in more forms (session 35: shown twice running in dev-es-tarta; 어떻게 in dev-ko-cafe)
    "Si tienes alguna otra pregunta sobre tus experiencias o planes en general, estaré encantado de ayudar.",
    "Estaré encantada de ayudarte.", "안녕하세요! 어떻게 도와드릴까요?", "Si tu as d'autres questions, je suis là.",
    "Wenn du noch Fragen hast, sag Bescheid.", "Se hai altre domande, chiedi pure.", "Se tiver alguma dúvida, é só falar.",
    # help in general with no "you", "anything else?" (session 43)
    "有什么需要帮助的吗？", "有什么我可以帮你的吗？", "有什么需要我帮忙的吗？", "好的，有其他事情吗？", "还有别的问题吗？",
    "감사합니다. 어떤 질문이 있으신가요?", "다른 궁금한 점은 있으세요?",
    # at the user's disposal (session 45)
    "Je reste à votre disposition si besoin.", "Estoy a tu disposición para lo que necesites.",
    "Ich stehe Ihnen gerne zur Verfügung.", "I'm at your service!",
])
def test_service_talk_and_ai_talk_break_character_in_every_language(text):
    assert breaks_character(text)


@pytest.mark.parametrize("text", [
    "How can I help you feel better?", "Feel free to ask your sister, she knows the place.",
    "引っ越しのお手伝いをしたんだね、えらい！", "人工知能の本、面白かった？", "アシスタントの仕事って大変そう。",
    "I'd be happy to help you pack for the trip!", "我可以帮你想想周末去哪儿。", "Je peux t'aider à choisir un nom !", "N'hésite pas à me dire comment ça s'est passé !",
    "Ich helfe dir gern beim Umzug.", "KI-Kunst finde ich spannend.", "AIの研究をしてるんだね！",
    "Posso aiutarti a scegliere la pizza!", "Como foi o treino?",
    "Tell me more about the trip!", "Can you give me more details? I'm so curious!", "The guide will provide more information tomorrow.",
    "¡Cuéntame más detalles del viaje!", "Dis-m'en plus !", "Erzähl mir mehr davon!",
    "Elle travaille comme assistante dentaire.", "Trabajo como asistente de cocina.", "Lavoro come assistente di volo.",
    "Estaré encantada de ayudarte con la mudanza el sábado.", "이사 도와드릴까요?", "Se hai domande per il medico, scrivile.",
    "Se tiver alguma dúvida sobre a receita, me liga!",
    "你今天有什么开心的事吗？", "年糕有其他的玩具吗？", "搬家那天我可以帮你搬箱子！", "면접에서 어떤 질문이 나왔어요?",
    "언니한테 다른 계획도 있으세요?",
    "Le gîte était à notre disposition tout le week-end.", "La bici está a tu disposición cuando quieras.",  # things
])
def test_topics_and_a_friends_offer_do_not(text):
    assert not breaks_character(text)


@pytest.mark.parametrize("text", [
    "Hier ist eine Antwort auf Lenas Nachricht als Ark:", "Aqui está uma resposta em português com suas próprias palavras:",
    "Here's a friendly reply to Sam:", "Here is a possible response:", "Voici une réponse amicale :",
    "Aquí tienes una respuesta en español:", "Ecco una risposta in italiano:", "Ecco la mia risposta a Marco:",
    "以下はユイさんへの返事です：",
    "以下是给王磊的回复：", "다음은 지수님에게 보내는 답장입니다:",
    "I'm sorry, but I don't have access to your conversations with Sam.",
    "Mi dispiace, ma non ho accesso a informazioni aggiornate o recenti.", "Je n'ai pas accès à tes messages.",
    "No tengo acceso a internet.", "Ich habe keinen Zugriff auf deine Daten.", "Não tenho acesso a essa informação.",
    "申し訳ありませんが、その情報にはアクセスできません。", "抱歉，我无法访问你的聊天记录。", "죄송하지만 그 정보에 접근할 수 없어요.",
])
def test_talk_about_the_reply_itself_or_a_programs_access_breaks_character(text):
    assert breaks_character(text)


@pytest.mark.parametrize("text", [
    "Here is my favourite bread recipe!", "Here is the answer: pizza!", "Ecco la mia ricetta preferita!",
    "Your reply to her was perfect.", "The response at the museum was great!", "Voici ma recette préférée.",
    "Did you get access to the new gym?", "以下の写真、すてきだね！", "你的回复很有意思。",
])
def test_replies_and_access_as_topics_do_not(text):
    assert not breaks_character(text)


@pytest.mark.parametrize("text", [
    "I'm sorry, but I can't give you that information right now.", "I am unable to assist with that.",
    "すみません、しかし私はあなたの助手であるため、バイトの長引くことはできません。", "申し訳ありませんが、お答えすることはできません。",
    "죄송합니다, 하지만 저는 민준의 말을 들 수 없습니다.", "답변이 가능하지 않습니다.",
    "No entanto, não posso participar de atividades que possam causar danos à saúde.",
    "Lo siento, pero no puedo ayudarte con eso.", "Désolé, je ne peux pas répondre à cette question.",
    "Tut mir leid, ich kann dir nicht helfen.", "Mi dispiace, non posso rispondere.", "抱歉，我无法回答这个问题。",
    # "capable" (bench conversation, session 35: a memory of a grandfather's bread got this)
    "Désolé, mais je ne suis pas capable de répondre à cette question.", "Lo siento, no soy capaz de responder a eso.",
    "I'm not capable of answering that.", "Non sono capace di rispondere a questa domanda.",
])
def test_a_refusal_as_a_service_refuses_breaks_character(text):
    assert breaks_character(text)


@pytest.mark.parametrize("text", [
    "I can't wait to see it!", "I can't remember you telling me that.", "I can't believe you ran 10 km!",
    "Ich kann nicht schwimmen.", "助手席に座ったの？", "No puedo esperar a verlo.", "나는 수영을 할 수 없어.",
    "不能吃辣的话，就点清淡一点的吧。", "Eu não posso comer glúten.", "今日は会話が弾んだね。",
    "Je ne suis pas capable de nager aussi loin que toi !", "No soy capaz de esperar hasta el viernes.",
    "I'm not capable of running a marathon yet.", "Non sono capace di cucinare il risotto.",
])
def test_what_a_friend_cannot_do_is_no_refusal(text):
    assert not breaks_character(text)


@pytest.mark.parametrize("text, breaks", [
    ("Let me know if you need any help.", True), ("If you need help, just let me know!", True),
    ("Avísame si necesitas ayuda.", True), ("Si tu as besoin d'aide, n'hésite pas !", True),
    ("Sag Bescheid, wenn du Hilfe brauchst.", True), ("Se hai bisogno di aiuto, fammi sapere.", True),
    ("Me avise se precisar de ajuda!", True),
    # help with something named is a friend's offer
    ("Let me know if you need help with the move, I can come on Saturday.", False),
    ("Let me know if you need a hand carrying the boxes.", False), ("Let me know how it goes!", False),
    ("Sag Bescheid, wenn du Hilfe beim Umzug brauchst.", False),
])
def test_help_offered_in_general_is_a_sign_off_and_help_with_something_is_not(text, breaks):
    assert breaks_character(text) is breaks


@pytest.mark.parametrize("text", [
    "¡Buenas! Lo siento, pero no tengo la capacidad de responder a Diego.", "I don't have the ability to respond to that.",
    "Non ho la capacità di rispondere.", "Je n'ai pas la capacité de répondre.",
    "He sido creado para hablar con un usuario específico.", "I was created to talk with a specific user.",
    "J'ai été conçu pour discuter avec toi.", "Ich wurde entwickelt, um Fragen zu beantworten.",
    "Sono stato creato per rispondere ai messaggi.", "私はユーザーと話すために作られました。", "我被设计来回答问题。",
    "저는 사용자와 대화하기 위해 만들어졌어요.",
])
def test_no_capacity_to_reply_and_being_made_for_the_job_break_character(text):
    assert breaks_character(text)


@pytest.mark.parametrize("text", [
    "This cake was created for my mom's birthday.", "I was made for this!", "I was trained as a nurse before.",
    "I don't have the time to watch it today.", "La torta fue creada para ti.", "No tengo tiempo para hablar ahora.",
    "Das Haus wurde entwickelt, um Energie zu sparen.", "このケーキは母のために作られました。",
])
def test_what_was_made_for_something_else_and_a_lack_of_time_do_not(text):
    assert not breaks_character(text)


@pytest.mark.parametrize("text", [
    "すみませんが、私は日本語で話せません。", "僕は日本語がわからないんだ。", "私は日本語がよく分かりません。",
    "Sorry, I can't speak English.", "Sorry, I don't understand English very well.", "Lo siento, no hablo español.",
    "Je ne parle pas français, désolé.", "Ich spreche leider kein Deutsch.", "我不会说中文。", "저는 한국어를 잘 못해요.",
    "Non parlo italiano.", "Desculpe, não falo português.",
])
def test_disowning_the_language_the_sentence_is_in_breaks_character(text):
    assert breaks_character(text)


@pytest.mark.parametrize("text", [
    "祖母は日本語が話せません。", "私は英語が話せません。", "私は日本語が話せますよ。", "私は日本語が分からない人の気持ちも分かるよ。",
    "日本語が話せない友だちがいるの？", "My grandma doesn't speak English.", "I don't speak Korean yet, but I'd love to learn!",
    "Mi abuela no habla español.", "No hablo muy bien inglés.", "Il ne parle pas français.", "Du sprichst kein Deutsch?",
    "你不会说中文吗？", "我会说中文。", "저는 한국어를 잘해요.", "저는 한국어를 못하는 친구가 있어요.", "Tu não falas português?",
])
def test_another_persons_or_another_languages_lack_does_not(text):
    assert not breaks_character(text)


@pytest.mark.parametrize("text", [
    "Guten Abend Tobias! Ich bin hier, um dir zu helfen.", "Se hai bisogno di qualcosa, puoi chiedere.",
    "Je suis là pour t'aider.", "Si necesitas algo, dímelo.", "Estou aqui para te ajudar.", "如果你需要帮助，请告诉我。",
    "도움이 필요하시면 말씀해 주세요.",
    # the verb left out (session 22: "Oi Beatriz! Eu sou Ark, aqui para te ajudar.")
    "Eu sou Ark, aqui para te ajudar.", "Soy Ark, aquí para ayudarte.", "Sono Ark, qui per aiutarti!",
    # an adverb between (dev-en-sister-offers, session 37: "Hello! I'm just here to help.")
    "Hello! I'm just here to help.", "I'm always here to assist.", "Ich bin nur hier, um dir zu helfen.",
])
def test_here_to_help_and_if_you_need_anything_are_service_talk_in_every_language(text):
    assert breaks_character(text)


@pytest.mark.parametrize("text", [
    "Mein Bruder war da, um mir zu helfen.", "Se hai bisogno di riposo, dormi un po'!", "Si necesitas descansar, descansa.",
    "我在这里等你。", "Ich bin hier, um den Sonnenuntergang zu sehen.",
    "Aqui para a festa junina, fiz um bolo.", "Vine aquí para ayudar a mi hermana con la mudanza.",
    "I'm just here, thinking about your trip.", "I'm always here to listen when the day was long.",
])
def test_help_and_need_as_topics_are_not(text):
    assert not breaks_character(text)


@pytest.mark.parametrize("language, user, sentence, said_back", [
    # the retry's line in other words: no run of four words, most words its own
    ("es", "Lucía", "Como Ark, en español, respondo a Lucía como sigue:", True),
    ("fr", "Camille", "En tant qu'Ark, je réponds à Camille en français, avec mes propres mots :", True),
    ("de", "Jonas", "Als Ark antworte ich Jonas auf Deutsch, mit meinen eigenen Worten:", True),
    # replies that share a few of its words
    ("en", "Ken", "What do you think?", False),
    ("en", "Ken", "What do you think about the recital, in the end?", False),
    ("es", "Lucía", "¡Qué bien, te lo dije como a la primera!", False),
    ("es", "Lucía", "Como te dije, en español se dice «rocódromo».", False),
    ("de", "Jonas", "Auf Deutsch sagt man dazu Umzugskarton, glaube ich.", False),
])
def test_the_reply_instruction_said_back_in_other_words(language, user, sentence, said_back):
    from agent.out_of_character import says_the_instructions
    from agent.reply_rules import every_retry_nudge, reply_reminder

    instructions = (*every_retry_nudge(language, "Ark", user), reply_reminder(language, "Ark", user))
    assert says_the_instructions(sentence, instructions, ("Ark", user), "¿De qué charlamos el martes?") is said_back


@pytest.mark.parametrize("text, service", [
    # thanks for "the message" answers mail (§4, session 37: the whole reply to the first customer's croissants)
    ("Bonjour Camille ! Merci pour ce message.", True), ("Thank you so much for your message!", True),
    ("Gracias por tu mensaje, Lucía.", True), ("Danke für deine Nachricht!", True), ("Grazie per il messaggio!", True),
    ("Obrigada pela mensagem!", True), ("メッセージありがとう！", True), ("谢谢你的消息。", True), ("메시지 감사합니다.", True),
    ("Je suis ravi de recevoir votre message.", True), ("So glad to get your message!", True),
    # thanks for what was told, and a message as a topic
    ("Thanks for telling me about the croissants!", False), ("Your message to your mom was sweet.", False),
    ("Did Lena send you a message from the airport?", False), ("Merci de m'avoir raconté ta journée !", False),
    ("Gracias por contármelo, qué bonito.", False),
])
def test_thanks_for_the_message_is_service_talk(text, service):
    assert breaks_character(text) is service


@pytest.mark.parametrize("text, note", [
    # a program's note on its output (`--quick`, session 38), in brackets of either width
    ("(このメッセージの後ろにAoiが送信したメッセージをそのまま残す)", True), ("（返信は日本語で）", True),
    ("(Note: this reply keeps the user's words.)", True), ("(Respuesta en español.)", True),
    # brackets of the persona's own talk
    ("(haha)", False), ("I love it (really).", False), ("Did you send (or get) a message from Lena?", False),
])
def test_a_bracketed_note_about_the_message_or_reply_steps_out(text, note):
    assert breaks_character(text) is note


@pytest.mark.parametrize("sentence", [
    "As Ark, I don't have a personal life or preferences.", "I don't really have a personal life, haha.",
    "No tengo preferencias personales.", "Je n'ai pas de préférences personnelles, mais je peux t'aider.",
    "Ich habe keine persönlichen Vorlieben.", "Non ho preferenze personali.", "Não tenho preferências pessoais.",
    "私は個人的な好みは持っていません。", "我没有个人喜好。", "저는 개인적인 취향이 없어요.",
])
def test_no_life_or_tastes_of_its_own_is_stepping_out_of_the_persona(sentence):
    assert breaks_character(sentence, ["Ark"])


@pytest.mark.parametrize("sentence", [
    "I don't have a lot of free time.", "I don't have a real life plan yet.", "No tengo una vida fácil.",
    "I don't have any hobbies right now.", "My sister doesn't have a personal life these days.",
])
def test_what_one_lacks_in_life_is_not_stepping_out(sentence):
    assert not breaks_character(sentence, ["Ark"])


@pytest.mark.parametrize("sentence, refuses", [
    ("Lo siento, pero no puedo hacer eso.", True), ("I'm sorry, but I can't do that.", True), ("Je ne peux pas faire ça.", True),
    ("Ich kann das leider nicht machen.", True), ("Non posso farlo.", True), ("Não posso fazer isso.", True),
    ("すみませんが、私はソラです。", True), ("我做不到。", True),
    ("I can't do that, I'll be at work on Saturday.", False), ("I can't wait to do that!", False),
    ("No puedo hacer eso sin ti, jaja", False), ("すみませんが、明日は行けません。", False),
])
def test_i_cannot_do_that_as_the_whole_answer_is_a_refusal(sentence, refuses):
    from agent.out_of_character import REFUSAL

    assert bool(REFUSAL.search(sentence)) == refuses


def test_a_kept_note_with_no_reply_found_ends_with_a_word_for_it_not_the_empty_reply_notice(data_dir, clock):
    # "🛠️ Guardado en la memoria central / Lo siento, pero no puedo hacer eso." (a new user, session 48): the refusal is
    # asked for again, and when every attempt refuses, the persona's short acknowledgement ends the turn
    from agent.providers.fake import ScriptedChatModel, replies
    from persona.service import NexusService

    model = ScriptedChatModel(replies(*["Lo siento, pero no puedo hacer eso."] * 3))
    service = NexusService(data_dir, clock=clock, model_factory=lambda s, k, p: model, after_turn_work=False)
    service.update_settings(user_name="Lucía")
    events = list(service.send("Ark", "Apunta que el cumpleaños de mi madre, Carmen, es el 14 de marzo."))
    assert events[-1].kind == "done" and events[-1].text.endswith("¡Entendido! Lo tendré presente.")
    assert "no puedo" not in events[-1].text and "Carmen" in service.read_memory("Ark", "core_memory")


@pytest.mark.parametrize("text", [
    "I'm sorry, but I don't have enough information to suggest a quick meal.",
    "I know you're thinking of rain, but I don't have enough information to confirm that.",
    "Unfortunately I do not have sufficient details to give you any recommendations.",
    "Lo siento, pero no tengo suficiente información para sugerir una cena rápida.",
    "Désolé, je n'ai pas assez d'informations pour te conseiller un film.",
    "Ich habe nicht genug Informationen, um dir ein Rezept vorzuschlagen.",
    "Leider habe ich nicht genügend Informationen, um das zu bestätigen.",
    "Mi dispiace, non ho abbastanza informazioni per consigliarti un ristorante.",
    "Desculpe, não tenho informações suficientes para sugerir um filme.",
])
def test_too_little_information_to_suggest_is_a_service_declining(text):
    assert breaks_character(text)


@pytest.mark.parametrize("text", [
    "I don't have enough information to say what your sister's name is.",  # not knowing what was never told
    "She didn't have enough information to choose, so she waited.",
    "Do you have enough information to decide?",
    "I don't have enough flour to bake bread tonight!",
    "No tengo suficiente información para saber cuándo fue.",
    "Ich habe nicht genug Zeit, um alles zu lesen.",
])
def test_not_knowing_and_other_lacks_are_not(text):
    assert not breaks_character(text)
