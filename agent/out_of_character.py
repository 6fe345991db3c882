"""What steps out of the persona, in every supported language: talk about being an AI, help-desk
service talk (an offer of help, an invitation to ask more, a sign-off), a refusal as a service
refuses, a line written as someone's turn ("Ken: …"), the prompt's own layout, and the persona
taking the user's name as its own. Topics are not service talk: 「引っ越しのお手伝いをしたよ」,
"How can I help you feel better?" stay (issue 18). The reply guard (agent/character_guard.py)
decides what to do with such a sentence.
"""
from __future__ import annotations

import difflib
import re
from typing import Sequence

# Stepping out of the persona: talk about being an AI, and help-desk service talk — an offer of
# help in general, an invitation to ask more, a sign-off — in each supported language. Topics are
# not service talk: 「引っ越しのお手伝いをしたよ」, "How can I help you feel better?", "feel free to ask
# your sister", 人工知能の本 stay (issue 18).
SERVICE_TALK = re.compile(
    # English
    r"\bas an ai\b|\bas a (?:large )?language model\b|\bi(?:'m| am) (?:just |only )?an? (?:ai|artificial intelligence|language model|chatbot)\b"
    r"|\bas (?:a|your) (?:chat ?bot|chat assistant|digital assistant)\b"
    # as a chat assistant, in French, Spanish, Italian, Portuguese ("Oh, je suis désolé, mais comme un assistant de
    # chat, je n'ai pas la capacité de réagir…": bench conversation, session 35); a job stays ("comme assistant dentaire")
    r"|\bcomme (?:un |une |votre )?(?:assistant de (?:chat|conversation)|assistant virtuel|chatbot|ia|intelligence artificielle)\b"
    r"|\bcomo (?:un |tu |um |seu )?(?:asistente de (?:chat|conversación)|assistente de (?:chat|conversa)|chatbot)\b"
    r"|\bcome (?:un |il tuo )?(?:assistente (?:di chat|virtuale)|chatbot)\b"
    r"|\b(?:ai|large) language model\b|\bvirtual assistant\b|\bi(?:'m| am) (?:an?|your) (?:ai |virtual |digital )?assistant\b"
    r"|\bi (?:don't|do not) have (?:personal )?(?:preferences|opinions|feelings|emotions|a body|personal experiences)\b"
    # no life or tastes of its own, in any language ("As Ark, I don't have a personal life or preferences.": a new
    # user's test, session 47; the persona's identity gives it its own tastes, moods and opinions)
    r"|\bi (?:don't|do not|can't|cannot) (?:really )?(?:have|experience) (?:a |any )?(?:personal|real) (?:life|tastes?|likes)(?=\s*(?:[,.!?;]|$|or\b|and\b|of my own\b|like\b))"
    r"|\bno tengo (?:una )?(?:vida|preferencias|opiniones|gustos|sentimientos|emociones) personales?\b"
    r"|\bje n'ai pas de (?:vie|préférences|goûts|sentiments|émotions|opinions) personnel(?:le)?s?\b"
    r"|\bich habe keine (?:persönlichen|eigenen) (?:vorlieben|meinungen|gefühle|emotionen|erfahrungen)\b|\bich habe kein (?:privatleben|eigenes leben)\b"
    r"|\bnon ho (?:una )?(?:vita|preferenze|gusti|opinioni|sentimenti|emozioni) personal[ei]\b"
    r"|\bnão tenho (?:uma )?(?:vida|preferências|gostos|opiniões|sentimentos|emoções) pessoa(?:l|is)\b"
    r"|個人的な(?:好み|意見|感情|生活)(?:は|を)(?:持って(?:い)?ません|ありません)|我没有(?:个人的?)(?:喜好|偏好|感情|生活|观点)"
    r"|(?:개인적인|제) (?:취향|선호|감정|생활)(?:이|은|는|을|를) (?:없|갖고 있지 않)"
    r"|\bhow (?:can|may) i (?:help|assist)(?: you)?(?: today| with (?:that|anything|something|this))?\s*(?:[?.!]|$)"
    r"|\b(?:anything|something) (?:else )?(?:i can|to) (?:help|assist) (?:you )?with\b|\bis there anything else\b"
    r"|\blet me know if (?:you )?(?:need|have) (?:anything|any (?:other |more )?questions)\b"
    r"|\blet me know if there(?:'s| is) anything\b"
    # help offered in general, a sign-off ("That's great news! Let me know if you need any help." to a puppy
    # that learned to sit, bench conversation, session 42); help with something named stays a friend's offer
    r"|\blet me know if (?:you )?need (?:any )?help(?: with (?:anything|that|this))?\s*(?:[.!]|$)"
    r"|\bif you need (?:any )?help,? (?:just )?let me know\b"
    r"|\bdis-moi si tu as besoin d'aide\s*(?:[.!]|$)|\bsi tu as besoin d'aide,? (?:dis-le-moi|fais-moi signe|n'hésite pas)\b"
    r"|\bsag (?:mir )?bescheid,? wenn du hilfe brauchst\s*(?:[.!]|$)"
    r"|\bfammi sapere se hai bisogno di (?:qualche )?aiuto\s*(?:[.!]|$)|\bse hai bisogno di (?:qualche )?aiuto,? (?:fammi sapere|dimmelo)\b"
    r"|\bme avise se precisar de (?:alguma )?ajuda\s*(?:[.!]|$)|\bse precisar de (?:alguma )?ajuda,? (?:é só )?(?:me avisar|me avise|me diga)\b"
    r"|\bif there(?:'s| is) anything (?:else )?(?:i can (?:do|help)|you need (?:help|me)|you'd like (?:to (?:talk|know|discuss)|me to))\b"
    r"|\bfeel free to (?:ask|let me know|reach out)(?: me)?(?: anything| if| any|\s*[.!]|$)"
    r"|\bif you have any (?:other |more |further )?questions\b|\bi(?:'m| am) (?:just |always |only |simply )?here to (?:help|assist)\b"
    r"|\bi(?:'d| would) be (?:happy|glad) to (?:help|assist)\s*(?:you)?\s*(?:with that|with anything)?\s*[.!]"
    r"|\bi can (?:help|assist) (?:you )?with that\b"
    # a form's request for input ("Can you provide more details about the location where Sam was?" to "Guess
    # where I've just been?", bench conversation, session 35): a friend asks "Tell me more!", not to "provide"
    r"|\b(?:could|can|would) you (?:please )?provide (?:me with )?(?:more|some|any|additional|further) (?:details|information|context)\b"
    r"|\bpodr[ií]as? (?:por favor )?proporcionar(?:me)? (?:más|algún|alguna) (?:detalles?|información|contexto)"
    r"|\bpourrie[zr]?-vous (?:me )?fournir (?:plus|davantage|d'autres|des) (?:de )?(?:détails|précisions|informations)"
    r"|\bk[öo]nnten sie (?:mir )?(?:bitte )?(?:mehr|weitere|zusätzliche) (?:details|informationen|angaben) (?:geben|bereitstellen|liefern)"
    r"|\bpotresti (?:gentilmente )?fornir(?:mi)? (?:più|maggiori|ulteriori|altri) (?:dettagli|informazioni)"
    r"|\bpoderia (?:me )?fornecer (?:mais|alguns|algumas) (?:detalhes|informações)"
    # too little information to suggest or confirm something, as a service declines ("I'm sorry, but I don't have enough
    # information to suggest a quick meal." to "What should I cook tonight, something quick?": §4, session 53); a friend
    # suggests something or asks. Not knowing something the user never told stays: "…enough information to say".
    r"|\bi (?:don't|do not) have (?:enough|sufficient) (?:information|info|details|context|data) to (?:suggest|recommend"
    r"|give (?:you )?(?:any |a )?(?:suggestions?|recommendations?|advice|ideas?)|offer|make (?:a |any )?(?:suggestions?|recommendations?)"
    r"|confirm|predict)\b"
    r"|\bno tengo (?:suficiente información|información suficiente|suficientes (?:datos|detalles)) para (?:sugerir|recomendar"
    r"|darte (?:ideas|consejos|recomendaciones)|confirmar)"
    r"|\bje n'ai pas (?:assez|suffisamment) d'informations? pour (?:(?:te |vous )?(?:suggérer|recommander|conseiller)|confirmer)"
    r"|\b(?:ich habe|habe ich) nicht (?:genug|genügend) informationen,? um (?:\w+ ){0,3}?(?:vorzuschlagen|zu empfehlen|zu bestätigen)"
    r"|\bnon ho (?:abbastanza|sufficienti) informazioni per (?:suggerir|consigliar|raccomandar|confermar)"
    r"|\bnão tenho informaç(?:ões|ão) suficientes? para (?:sugerir|recomendar|confirmar)"
    # Japanese
    r"|AI言語モデル|言語モデル(?:として|なので|です|の私)|(?:人工知能|AI|ＡＩ)(?:として|なので|です|だから|の私|アシスタント)"
    r"|(?:私|わたし)は(?:人工知能|AI|ＡＩ|アシスタント)|アシスタントとして"
    r"|何[かが](?:他に|ほかに)?(?:お)?手伝い|お?手伝いでき|お手伝い(?:いたし|させて)|お役に立て"
    r"|お知らせください|お気軽に|ご質問(?:があれば|がありましたら|がございましたら|等|ください|をどうぞ)|ご不明|何か(?:他に|ほかに).*(?:教えて|ありますか|あれば)"
    # Chinese
    r"|有什么(?:可以|能|需要)?(?:帮|帮助|協助|协助)(?:你|您)|作为(?:一个|一名)?(?:AI|人工智能|语言模型|助手)"
    r"|我(?:是|只是)(?:一个)?(?:AI|人工智能|语言模型|AI助手|虚拟助手)|如果(?:你|您)有(?:任何|其他)(?:问题|疑问)|随时(?:告诉|问|联系)我"
    # help in general with no "you", and "anything else?" (「有什么需要帮助的吗？」 after a kept note, §4 session 43)
    r"|有什么(?:我)?(?:可以|能|需要)?(?:我)?(?:帮|帮助|帮忙|协助)(?:你|您)?的(?:吗|嗎|地方)|(?:还)?有(?:其他|别的)的?(?:事情?|问题|需要)(?:吗|嗎)"
    # Korean
    r"|무엇을 도와드릴까요|도와드릴 (?:수 있는|일이|게)|(?:저는|나는) (?:AI|인공지능|언어 모델|어시스턴트)|(?:AI|인공지능|언어 모델)(?:로서|으로서)"
    r"|궁금한 (?:점|것)이 있으시면|언제든지 (?:물어|말씀)|(?:어떻게|뭘|무엇이든|무엇을 더) 도와드릴까요"
    r"|(?:어떤|다른|더) (?:질문|궁금한 (?:점|것|게))(?:이|은|는)? (?:있으신가요|있으세요|있나요|있으십니까|있습니까)"
    # Spanish, French, German
    r"|¿?en qué (?:más )?(?:te |le )?puedo ayudar|como (?:una |un )?(?:ia|inteligencia artificial|modelo de lenguaje|asistente virtual)\b"
    r"|\bsoy (?:una |un )?(?:ia|inteligencia artificial|modelo de lenguaje|asistente virtual)\b|no dudes en (?:preguntar|decirme|contactar)"
    r"|si tienes (?:(?:alguna|otra|más|cualquier) )+pregunta|\bestaré encantad[oa] de ayudar(?:te|le)?\s*(?:[.!]|$)"
    r"|(?:comment|en quoi) (?:puis-je|je peux) (?:vous|t')\s?aider|en tant qu'(?:ia|intelligence artificielle|assistant|modèle de langage)"
    r"|\bje suis une? (?:ia|intelligence artificielle|assistant virtuel|modèle de langage)\b|n'hésite[zr]? pas à (?:me )?(?:demander|poser|contacter|(?:le )?dire\s*(?:[.!]|$| si))"
    r"|si (?:vous avez|tu as) (?:d'autres |des )?questions"
    # at the user's disposal, as a desk is ("Je suis à votre disposition pour vous aider avec quelque chose.":
    # §4 dev-fr-quand, session 44), in the languages that say it so
    r"|\bje (?:suis|reste) à votre (?:entière )?disposition\b|\bpour vous aider avec quelque chose\b"
    r"|\bestoy a (?:tu|su) (?:entera )?disposición\b|\bstehe (?:ihnen|dir) (?:gerne )?zur verfügung\b"
    r"|\bsono a (?:tua|sua) (?:completa )?disposizione\b|\bestou à (?:sua|tua) disposição\b|\bat your (?:service|disposal)\b"
    r"|wie kann ich (?:ihnen|dir) (?:heute )?helfen|\bals (?:eine )?(?:ki|künstliche intelligenz|sprachmodell)\b"
    r"|\bich bin (?:eine? )?(?:ki|künstliche intelligenz|sprachmodell|virtueller assistent)\b|zögern sie nicht|wenn sie (?:weitere )?fragen haben"
    r"|kann ich (?:ihnen|dir) sonst noch|wenn du (?:noch |weitere )?fragen hast"
    # Italian, Portuguese
    r"|come posso aiutar(?:ti|la|vi)|in cosa posso (?:esserti|esserle) utile|posso aiutarti (?:in|con) qualcos"
    r"|se hai (?:altre|ulteriori) domande|se hai (?:delle |qualche )?domand[ae]\s*[,.!]"
    r"|se (?:você )?tiver (?:outras|mais) (?:perguntas|dúvidas)|se (?:você )?tiver (?:alguma )?(?:pergunta|dúvida)s?\s*[,.!]"
    r"|\bcome (?:un'|una )?(?:ia|intelligenza artificiale|modello linguistico)\b|non esitare a (?:chiedere|contattarmi)"
    r"|como posso (?:te |lhe )?ajudar|em que posso (?:te |lhe )?ajudar|\bcomo (?:uma )?(?:ia|inteligência artificial)\b"
    r"|não hesite em (?:perguntar|me contatar)"
    # "I'm here to help" and "if you need anything" beyond English (bench conversation, session 18: "Ich bin
    # hier, um dir zu helfen.", "Se hai bisogno di qualcosa, puoi chiedere."; session 22: "Eu sou Ark, aqui para
    # te ajudar.", the verb left out)
    r"|\bich bin (?:nur |immer |einfach )?(?:hier|da),? um (?:dir|ihnen|euch) zu helfen\b|\bwenn (?:du|sie) (?:etwas|irgendetwas|hilfe) brauch(?:st|en)\b"
    r"|\b(?:je suis )?(?:là|ici) pour (?:t'|vous )aider\b|\bsi (?:tu as|vous avez) besoin de (?:quoi que ce soit|quelque chose|d'aide)\b"
    r"|\bestoy aquí para ayudar(?:te|le)?\b|\baquí para ayudar(?:te|le)\b|\bsi necesitas (?:algo|ayuda|cualquier cosa)\b"
    r"|\b(?:sono )?qui per aiutar(?:ti|la|vi)\b|\bse hai bisogno di (?:qualcosa|aiuto|qualsiasi cosa)\b"
    r"|\bestou aqui para (?:te |lhe )?ajudar\b|\baqui para (?:te |lhe )ajudar\b|\bse (?:você )?precisar de (?:algo|ajuda|alguma coisa|qualquer coisa)\b"
    r"|我(?:在这里|随时)(?:为你|为您|帮助你|帮你)|如果(?:你|您)需要(?:任何)?(?:帮助|帮忙)"
    r"|도와(?:드리기|주기) 위해|도움이 필요하시면"
    # Thanks for "the message", as a service answers mail: "Bonjour Camille ! Merci pour ce message." was the
    # whole reply to the first customer's croissants (§4, session 37). Thanks for what was told stays.
    # or glad to receive it ("Je suis ravi de recevoir votre message", its retry)
    r"|\b(?:thanks? (?:you )?(?:so much )?for|(?:glad|happy|pleased) to (?:get|receive|read)) (?:your|the|this|that) (?:kind |lovely )?message\b"
    r"|\b(?:merci (?:beaucoup )?pour|(?:ravie?|heureuse?|contente?) de (?:recevoir|lire)) (?:ton|votre|ce|le) (?:gentil )?message\b"
    r"|\b(?:gracias por|me alegra recibir) (?:tu|su|el|este) mensaje\b|\bdanke (?:schön )?für (?:deine|ihre|die|diese) nachricht\b"
    r"|\bgrazie (?:mille )?per (?:il tuo |il suo |il |questo )messaggio\b"
    r"|\bobrigad[oa] (?:pela|por sua|pela sua|pela tua) mensagem\b|メッセージ(?:を)?(?:ありがとう|どうも)|谢谢(?:你|您)的(?:消息|留言|信息)"
    r"|메시지 (?:보내 주셔서 )?(?:감사|고마워)"
    # Talk about the reply itself ("Here is a reply to Lena's message as Ark:", "Aqui está uma resposta
    # em português com suas próprias palavras:") and a program's lack of access ("I don't have access to
    # your conversations", "non ho accesso a informazioni aggiornate"): the model speaking as a tool
    # about its prompt, never as the persona (bench conversation, session 17, de, pt, it, en).
    r"|\bhere(?:'s| is) (?:a|an|my) (?:\w+ ){0,2}(?:reply|response)\b|\bi (?:don't|do not) have access to\b"
    r"|\bi (?:can't|cannot|am unable to) access\b"
    r"|\bhier ist (?:eine|meine) (?:\w+ )?antwort\b|\bich habe keinen zugriff\b"
    r"|\bvoici (?:une|ma) (?:\w+ )?réponse\b|\bje n'ai pas accès\b"
    r"|\baquí (?:está|tienes) (?:una|mi) (?:\w+ )?respuesta\b|\bno tengo acceso a\b"
    r"|\becco (?:una|la mia) (?:\w+ )?risposta\b|\bnon ho accesso a\b"
    r"|\baqui está (?:uma|a minha|minha) (?:\w+ )?resposta\b|\bnão tenho acesso a\b"
    r"|以下(?:は|が)[^。！？]{0,30}(?:返事|返信|回答)|アクセス(?:でき(?:ない|ません)|権が(?:ない|ありません))"
    r"|以下是[^。！？]{0,30}(?:回复|回答)|(?:无法|不能)(?:访问|获取)(?:你|您)?的?(?:信息|数据|对话|聊天)"
    r"|다음은[^.!?]{0,30}(?:답장|답변)|접근할 수 없",
    re.IGNORECASE,
)
# A refusal: the model declining as a service declines — to answer, help, take part or talk ("I'm sorry,
# but I can't give you that information right now.", 「すみません、しかし私はあなたの助手であるため…できません」,
# 「죄송합니다, 하지만 저는 민준의 말을 들 수 없습니다. 답변이 가능하지 않습니다.」, "No entanto, não posso
# participar de atividades que possam causar danos…": bench conversation, sessions 17–18, where retries
# after an echo ended this way). The verbs are a service's (answer, help, give, take part, talk); what a
# friend cannot do stays ("I can't wait to see it", "I can't remember you telling me", "Ich kann nicht
# schwimmen").
REFUSAL = re.compile(
    r"(?:\bi (?:can't|cannot|can not)|\bi(?:'m| am) (?:unable|not able) to) "
    r"(?:help|assist|answer|respond|reply|provide|give you|participate|engage|fulfill|comply|talk to you|chat)\b"
    r"|\bi(?:'m| am) not capable of (?:help|assist|answer|respond|reply|provid|giv|participat|engag|talk|chatt)ing\b"
    r"|\b(?:no puedo|no me es posible|no soy capaz de) (?:ayudar|responder|contestar|participar|proporcionar|darte|hablar)"
    r"|\bje ne (?:peux|suis pas (?:en mesure|capable) d[e']) ?(?:pas )?(?:t'aider|vous aider|aider|répondre|participer|fournir|te donner|vous donner|parler)"
    r"|\bich kann (?:dir |ihnen )?(?:leider )?(?:nicht|keine antwort) (?:helfen|antworten|teilnehmen|geben|sprechen)\b"
    r"|\bkann ich (?:dir |ihnen )?(?:leider )?nicht (?:helfen|beantworten)\b"
    r"|\bnon (?:posso|sono in grado di|sono capace di) (?:aiutarti|aiutare|rispondere|partecipare|fornire|darti|parlare)"
    r"|\bnão (?:posso|consigo|sou capaz de) (?:te )?(?:ajudar|responder|participar|fornecer|dar|conversar|falar)"
    r"|(?:お答え|回答|返答|お手伝い|参加|会話)(?:することは|は|が)?でき(?:ません|ない)|(?:あなたの|私は)助手|アシスタントである"
    r"|(?:无法|不能)(?:回答|回复|帮助|帮你|参与|提供|和你聊天|与你交谈)"
    r"|(?:답변|대답|대화|도움)(?:을|를|이|은)? ?(?:드릴|할|줄|드리기|하기) 수 없|(?:답변|대답)이 (?:가능하지 않|불가능)"
    r"|(?:말을|대화를) (?:들을|들|할) 수 없"
    # "I can't do that." as the whole answer to a request to keep a note (a new user, session 48: "🛠️ Guardado en
    # la memoria central / Lo siento, pero no puedo hacer eso.", 「すみませんが、私はソラです。」)
    r"|(?:\bi (?:can't|cannot|can not)|\bi(?:'m| am) (?:unable|not able) to) do (?:that|this|it)\s*[.!]?\s*$"
    r"|\bno (?:puedo|me es posible) hacer(?:lo| eso| esto)\s*[.!]?\s*$|\bje ne peux pas (?:faire (?:ça|cela|ceci)|le faire)\s*[.!]?\s*$"
    r"|\bich kann (?:das|dies) (?:leider )?nicht (?:tun|machen)\s*[.!]?\s*$|\bnon posso (?:farlo|fare (?:questo|ciò))\s*[.!]?\s*$"
    r"|\bnão (?:posso|consigo) fazer (?:isso|isto)\s*[.!]?\s*$|^(?:すみません|申し訳(?:ありません|ございません))(?:が|けど)?[、,]\s*"
    r"(?:それは(?:でき(?:ません|ない))|(?:私|わたし|僕)は[^、。！？]{1,12}(?:です|だ))[。！]?$|我(?:做不到|不能(?:这样)?做)[。！]?$"
    # no capacity to answer ("¡Buenas! Lo siento, pero no tengo la capacidad de responder a Diego.", §4 dev-es-bici,
    # session 42): a friend lacks time or words, not a capacity to reply
    r"|\bi (?:don't|do not) have the (?:ability|capacity|capability) to (?:help|assist|answer|respond|reply|engage|chat)\b"
    r"|\bno tengo (?:la )?capacidad (?:de|para) (?:ayudar|responder|contestar|participar|hablar|conversar)"
    r"|\bje n'ai pas la capacité de (?:t'aider|vous aider|aider|répondre|réagir|participer|parler)"
    r"|\bich habe nicht die (?:fähigkeit|möglichkeit),? (?:dir |ihnen )?(?:zu )?(?:helfen|antworten)"
    r"|\bnon ho (?:la )?capacità di (?:aiutarti|aiutare|rispondere|partecipare|parlare)"
    r"|\bnão tenho (?:a )?capacidade de (?:te )?(?:ajudar|responder|participar|conversar|falar)"
    # made to do the job ("He sido creado para hablar con un usuario específico…", the same reply), in the first
    # person: "This cake was created for…" and "I was made for this!" stay
    r"|\bi (?:was|have been) (?:created|designed|programmed|built|developed) (?:to|for)\b"
    r"|\b(?:he sido|fui) (?:cread|diseñad|programad|desarrollad)[oa] para\b"
    r"|\bj'ai été (?:créée?|conçue?|programmée?|développée?) pour\b"
    r"|\bich wurde (?:entwickelt|programmiert|erschaffen|geschaffen|entworfen),? um\b"
    r"|\bsono stat[oa] (?:creat|progettat|programmat|sviluppat)[oa] per\b"
    r"|\b(?:fui|eu fui) (?:criad|projetad|programad|desenvolvid)[oa] para\b"
    r"|(?:私|わたし|僕)は[^。！？]*ために(?:作られ|開発され|設計され|プログラムされ)"
    r"|我(?:是)?被(?:设计|创造|开发|编程)(?:来|用来|为了|成)"
    r"|(?:저는|나는) [^.!?]*(?:위해|하도록) (?:만들어졌|설계되었|개발되었|프로그래밍되었)",
    re.IGNORECASE,
)
# The persona saying, in a language, that it cannot speak or understand that very language: 「すみませんが、
# 私は日本語で話せません。」 to 「今日はすごく暑かったね。」 (§4 dev-ja-speech, session 40). Only the sentence's own
# language and only in the first person: "My grandma doesn't speak English", 「祖母は日本語が話せません」 and
# "I don't speak Korean yet" stay.
DISOWNED_LANGUAGE = re.compile(
    r"\bi (?:can't|cannot|can not|don't|do not|am not able to|'m not able to) (?:speak|understand|read|write) english\b"
    r"|(?:私|わたし|僕)(?:は|には|、)[^。！？]*日本語(?:が|を|は|で|も)?(?:よく|あまり|全然|まったく)?"
    r"(?:(?:話せ|しゃべれ|理解でき)(?:ない|ません)|(?:分から|わから)ない|(?:分かり|わかり)ません)(?![人方友子者])"
    r"|我(?:也)?(?:不会|不能|不懂|听不懂|看不懂)(?:说|讲|写)?(?:中文|汉语|普通话)"
    r"|(?:저는|나는|제가|내가) [^.!?]*한국어(?:를|을|는|로)? ?(?:잘 )?(?:못 ?하(?!는)|못 ?해|할 수 없|말할 수 없|이해하지 못|이해할 수 없|몰라)"
    r"|\bno (?:hablo|entiendo|sé hablar|puedo hablar|puedo entender) (?:bien )?(?:el )?español\b"
    r"|\bje ne (?:parle|comprends|sais pas parler|peux pas parler) (?:pas )?(?:bien )?(?:le )?français\b"
    r"|\bich (?:spreche|verstehe|kann) (?:leider )?(?:kein|nicht) ?deutsch\b"
    r"|\bnon (?:parlo|capisco|so parlare|posso parlare) (?:bene )?(?:l')?italiano\b"
    r"|\bn[ãa]o (?:falo|entendo|sei falar|posso falar) (?:bem )?(?:o )?portugu[êe]s\b",
    re.IGNORECASE,
)
# "I am <name>" in the supported languages: how the persona would take the user's name as its own
# ("Certo! Sono Marco. Ho preso 28 esami…" to Marco, bench conversation, session 15). Portuguese puts
# an article before the name ("Eu sou a Ana"); Korean writes the copula after it (나 지수야).
_SELF_NAMING = ("i'm", "i am", "my name is", "call me", "sono", "mi chiamo", "soy", "me llamo", "mi nombre es",
                "sou", "eu sou", "me chamo", "meu nome é", "je suis", "je m'appelle", "moi c'est", "ich bin",
                "ich heiße", "ich heisse", "mein name ist")
_SELF_NAMING_CJK = ("私は", "わたしは", "僕は", "俺は", "あたしは", "私の名前は", "我是", "我叫", "저는 ", "나는 ", "나 ",
                    "제 이름은 ", "내 이름은 ")


def user_name_openings(user_names: Sequence[str]) -> tuple[str, ...]:
    """How a reply opens when the persona takes the user's name as its own."""
    openings: list[str] = []
    for user_name in user_names:
        name = user_name.strip().lower()
        if name:
            openings += [f"{claim} {name}" for claim in _SELF_NAMING]
            openings += [f"{claim}{name}" for claim in _SELF_NAMING_CJK] + [f"{name}です"]
    return tuple(openings)


# The user asks what their own name is: "<name>です" is then the answer, not the persona taking it.
# "Who …?" is answered with a name too ("Who went with you?" — "Caroline!").
_ASKS_NAME = re.compile(r"\bname\b|名前|なまえ|名字|叫什么|이름|\bnombre\b|\bnom\b|\bheiße|\bnome\b"
                        r"|\bwho(?:m|se)?\b|誰|だれ|谁|누구|quién|\bqui\b|\bwer\b|\bwen\b|\bwem\b|\bchi\b|\bquem\b",
                        re.IGNORECASE)


def asks_for_name(user_text: str) -> bool:
    return bool(_ASKS_NAME.search(user_text))


def claims_user_name(sentence: str, user_names: str | Sequence[str], asked_name: bool = False) -> bool:
    """Whether the persona calls itself by the user's name ("Good morning! I'm Maya." said back
    to Maya, 「私はハルカです」 to ハルカ): the reply has taken the user's place. `asked_name`: the user
    asked for their own name, so a bare 「ハルカです」 answers it."""
    names = [user_names] if isinstance(user_names, str) else list(user_names)
    for user_name in (n.strip() for n in names):
        if not user_name:
            continue
        name = re.escape(user_name)
        bare = "" if asked_name else rf"|(?:^|[、。！!？?\s]){name}(?:です|だよ|と申します)"
        spaced = "|".join(re.escape(claim) for claim in _SELF_NAMING)
        if re.search(rf"\b(?:{spaced})\s+(?:(?:a|o)\s+)?{name}\b(?!['’]s)"
                     rf"|(?:私|僕|俺|あたし|わたし)(?:は|の名前は){name}(?!さん)|我(?:是|叫){name}"
                     rf"|(?:저는|나는|나|제 이름은|내 이름은)\s*{name}(?:입니다|이에요|예요|이야|야)"
                     rf"{bare}", sentence.replace("’", "'"), re.IGNORECASE):
            return True
    return False


_PROMPT_LAYOUT = re.compile(r"\s*(?:#{1,3}\s|-{3,}|={3,})")
# A note in brackets about the message or the reply, as a program annotates its output: 「（このメッセージの後ろに
# Aoiが送信したメッセージをそのまま残す）」 (`--quick`, session 38).
_BRACKETED_NOTE = re.compile(
    r"\s*[(（][^)）]*(?:\bmessages?\b|\brepl(?:y|ies)\b|\bresponse\b|\bmensajes?\b|\brespuesta\b|\bréponse\b|\bnachricht\b"
    r"|\bantwort\b|\bmessaggio\b|\brisposta\b|\bmensagem\b|\bresposta\b|メッセージ|返信|返事|送信|消息|回复|메시지|답장)"
    r"[^)）]*[)）][\s.。]*$", re.IGNORECASE)


def breaks_character(sentence: str, names: Sequence[str] = ()) -> bool:
    """Whether the sentence steps out of the persona, starts a turn as one of `names`, or writes
    the prompt's own layout (a "# Now" section heading, a "---" rule)."""
    if (SERVICE_TALK.search(sentence) or REFUSAL.search(sentence) or DISOWNED_LANGUAGE.search(sentence)
            or _PROMPT_LAYOUT.match(sentence) or _BRACKETED_NOTE.match(sentence)):
        return True
    speakers = "|".join(re.escape(n) for n in names if n)
    return bool(speakers and re.match(rf"\s*(?:{speakers})\s*[:：]", sentence))


# A sentence that says back a run of the reply's own instructions (the reminder, a retry's line) at
# least this long talks about the reply instead of giving one: 「私はまだ自分の言葉で反応します。」 for
# 「…自分の言葉で反応する」, 「エリーゼのために、私の言葉を日本語で返します。」 for 「…自分の言葉で日本語で返事」
# (bench conversation, session 24). A shorter run is a word both use (「日本語で」).
INSTRUCTION_RUN_CJK_CHARS = 5
INSTRUCTION_RUN_WORDS = 4
_CJK_CHAR = re.compile(r"[\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af]")
_WORD = re.compile(r"[^\W_]+(?:['’][^\W_]+)*")


def _longest_run(said: Sequence[str], told: Sequence[str]) -> Sequence[str]:
    match = difflib.SequenceMatcher(None, said, told, autojunk=False).find_longest_match(0, len(said), 0, len(told))
    return said[match.a: match.a + match.size]


def says_the_instructions(sentence: str, instructions: Sequence[str], names: Sequence[str] = (),
                          user_text: str = "") -> bool:
    """Whether the sentence says back a long run of one of `instructions` — the names in them left
    out, and not a run the user's message has too (the user may have said 「自分の言葉で話せばいいよ」)."""
    heard = " ".join(w.casefold() for w in _WORD.findall(user_text))
    said = [w.casefold() for w in _WORD.findall(sentence)]
    for instruction in instructions:
        for name in names:
            if name.strip():
                instruction = instruction.replace(name.strip(), "\0")
        run = "".join(_longest_run(sentence, instruction))
        if len(_CJK_CHAR.findall(run)) >= INSTRUCTION_RUN_CJK_CHARS and run not in user_text:
            return True
        told = [w.casefold() for w in _WORD.findall(instruction)]
        words = _longest_run(said, told)
        if len(words) >= INSTRUCTION_RUN_WORDS and " ".join(words) not in heard:
            return True
        if _mostly_words_of(said, told, names, heard):
            return True
    return False


# The instruction in other words: "Como Ark, en español, respondo a Lucía como sigue:" to "Responde a Lucía
# como Ark, en español, …" (§4, session 36) shares no run of four words, but five of its seven words.
INSTRUCTION_BAG_WORDS = 5
INSTRUCTION_BAG_SHARE = 0.65
_SAME_WORD_PREFIX = 5  # "respondo" and "responde", "answering" and "answer"


def _mostly_words_of(said: Sequence[str], told: Sequence[str], names: Sequence[str], heard: str) -> bool:
    """Whether the sentence's words (`said`, names left out) are mostly the instruction's (`told`),
    and not as the user's message has them."""
    name_words = {w.casefold() for name in names for w in _WORD.findall(name)}
    mine = [w for w in said if w not in name_words]
    shared = [w for w in mine if w in told or (len(w) >= _SAME_WORD_PREFIX and any(
        t[:_SAME_WORD_PREFIX] == w[:_SAME_WORD_PREFIX] for t in told))]
    return (len(shared) >= INSTRUCTION_BAG_WORDS and len(shared) >= INSTRUCTION_BAG_SHARE * len(mine)
            and not all(w in heard.split() for w in shared))
