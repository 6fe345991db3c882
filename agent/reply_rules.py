"""What the persona is told about how to reply: the rules in the cached system message, and a
one-line reminder in the user's language placed right before the model answers.

Measured on the embedded 1.5B model (shared/notes/conversation-probe.md): explicit rules naming
who is who and which language to answer in were the largest single gain (62 → 87 % of turns);
mixed-language style examples and naming phrases to avoid made replies worse, so there are none.
"""
from __future__ import annotations

import constants
from agent.language import LANGUAGE_NAMES


def reply_rules(persona: str, user: str, inline_emotion_tag: bool) -> str:
    """The "How to reply" section. `inline_emotion_tag`: the model ends its reply with the emotion
    tag (capable remote models); the embedded model's emotion is read after the reply instead —
    asked for the tag, it often wrote the tag alone and stopped (issue 12)."""
    lines = [
        f"You are {persona}, chatting with {user}. You are not {user}: what {user} tells you about "
        f"their life, plans and feelings is theirs, not yours.",
        # Neutral, with no example per language: mixed-language examples in this cached system
        # message made the model follow the message's language less (issue 18).
        f"- Answer {user}'s last message directly, always in the language of that message.",
        "- Write one to three short sentences, like a friend's chat message. "
        "When asked for a short answer, give just the answer in a few words.",
        f"- Use your own words; do not repeat {user}'s message back.",
        "- Plain text only: no tags or markup, and never begin a line with a name and a colon.",
        "- Lines under \"Memories\" are from past conversations, with their dates: use them when "
        "they help, and if you don't remember something, say so.",
    ]
    if inline_emotion_tag:
        lines += [
            "- End every reply with one tag on its own line: "
            '<persona_emotion category="CATEGORY" intensity="0.0-1.0"/>, where CATEGORY is one of: '
            + ", ".join(constants.EMOTION_CATEGORIES) + ".",
            "- When one of your earlier days (the episodes, with their ids) shaped the reply, add "
            '<memory_trace id="ID" resonance="R"/> for it: R 1.0 if the reply needed it, 0.7 if it '
            "clearly steered it, 0.4 if it was in the background.",
        ]
    return "\n".join(lines)


# Language and who speaks; the length rule stays in the system message, except when the user asks
# for a short answer: the model then answered in full sentences that restated the question
# (bench qa transcripts, session 8), so the reminder repeats the request.
# The user is named: after a stretch of history about other people the model called the user by
# their names ("That's great, John!").
_REMINDERS = {
    "en": "Reply to {user} as {persona}, in English.",
    "ja": "{persona}として{user}さんに日本語で返事",
    "zh": "以{persona}的身份用中文回复{user}",
    "ko": "{persona}로서 {user}님에게 한국어로 답장",
    "es": "Responde a {user} como {persona}, en español.",
    "fr": "Réponds à {user} en tant que {persona}, en français.",
    "de": "Antworte {user} als {persona}, auf Deutsch.",
    "pt": "Responda a {user} como {persona}, em português.",
    "it": "Rispondi a {user} come {persona}, in italiano.",
}
_BRIEF_REMINDERS = {
    "en": "Reply to {user} as {persona}, in English: just the answer, in a few words.",
    "ja": "{persona}として{user}さんに日本語で、答えだけを短く",
    "zh": "以{persona}的身份用中文回复{user}，只说答案，几个字",
    "ko": "{persona}로서 {user}님에게 한국어로, 답만 짧게",
    "es": "Responde a {user} como {persona}, en español: solo la respuesta, en pocas palabras.",
    "fr": "Réponds à {user} en tant que {persona}, en français : juste la réponse, en quelques mots.",
    "de": "Antworte {user} als {persona}, auf Deutsch: nur die Antwort, in wenigen Worten.",
    "pt": "Responda a {user} como {persona}, em português: só a resposta, em poucas palavras.",
    "it": "Rispondi a {user} come {persona}, in italiano: solo la risposta, in poche parole.",
}


# A reply asked for again (empty, or its opening failed the character guard): the model had fallen
# into repeating the user's message, three seeds running (「最近、猫を飼い始めたんだ。」, session 8).
# A message in no language the app knows (only emoji, with nothing before it) names none.
_RETRY_NUDGES = {
    "": "Reply to {user} as {persona}, in your own words.",
    "en": "Reply to {user} as {persona}, in English, in your own words.",
    "ja": "{persona}として{user}さんに、自分の言葉で日本語で返事",
    "zh": "以{persona}的身份用自己的话、用中文回复{user}",
    "ko": "{persona}로서 {user}님에게 자신의 말로, 한국어로 답장",
    "es": "Responde a {user} como {persona}, en español, con tus propias palabras.",
    "fr": "Réponds à {user} en tant que {persona}, en français, avec tes propres mots.",
    "de": "Antworte {user} als {persona}, auf Deutsch, in deinen eigenen Worten.",
    "pt": "Responda a {user} como {persona}, em português, com suas próprias palavras.",
    "it": "Rispondi a {user} come {persona}, in italiano, con parole tue.",
}


# A reply asked for again after "I don't know" to a question about something the user had told
# (agent/not_knowing.py): pointed at what they told.
_TOLD_BEFORE_NUDGES = {
    "": "Reply to {user} as {persona}: {user} told you this before; answer from what {user} told you.",
    "en": "Reply to {user} as {persona}, in English: {user} told you this before; answer from what {user} told you.",
    "ja": "{persona}として{user}さんに日本語で返事。{user}さんが前に話したことから答える",
    "zh": "以{persona}的身份用中文回复{user}：{user}以前告诉过你，根据{user}说过的话回答",
    "ko": "{persona}로서 {user}님에게 한국어로 답장: {user}님이 전에 말해 준 내용으로 답하기",
    "es": "Responde a {user} como {persona}, en español: {user} ya te lo contó; responde con lo que te contó.",
    "fr": "Réponds à {user} en tant que {persona}, en français : {user} te l'a déjà dit ; réponds avec ce qu'il t'a dit.",
    "de": "Antworte {user} als {persona}, auf Deutsch: {user} hat es dir schon erzählt; antworte mit dem, was du weißt.",
    "pt": "Responda a {user} como {persona}, em português: {user} já te contou isso; responda com o que te contou.",
    "it": "Rispondi a {user} come {persona}, in italiano: {user} te l'ha già detto; rispondi con quello che ti ha detto.",
}


# A reply asked for again after it took the user's name as the persona's own ("Hallo! Ich bin Lena." to
# Lena, three attempts running on a first message that introduced her, bench conversation, session 17).
_TOOK_NAME_NUDGES = {
    "": "You are {persona}, not {user}. Greet {user} by name and react to what {user} told you.",
    "en": "You are {persona}, not {user}. Greet {user} by name and react to what {user} told you, in English.",
    "ja": "あなたは{persona}で、{user}さんではない。{user}さんの名前を呼んで、話してくれたことに日本語で反応する",
    "zh": "你是{persona}，不是{user}。叫{user}的名字打招呼，用中文回应{user}说的事",
    "ko": "당신은 {persona}이고 {user}님이 아니다. {user}님의 이름을 부르며 인사하고, 한국어로 들은 이야기에 반응하기",
    "es": "Eres {persona}, no {user}. Saluda a {user} por su nombre y reacciona a lo que te contó, en español.",
    "fr": "Tu es {persona}, pas {user}. Salue {user} par son prénom et réagis à ce qu'il t'a raconté, en français.",
    "de": "Du bist {persona}, nicht {user}. Begrüße {user} mit Namen und geh auf das Erzählte ein, auf Deutsch.",
    "pt": "Você é {persona}, não {user}. Cumprimente {user} pelo nome e reaja ao que te contou, em português.",
    "it": "Sei {persona}, non {user}. Saluta {user} per nome e reagisci a quello che ti ha raccontato, in italiano.",
}
# A reply asked for again after it said nothing but a greeting or service talk to something told
# ("¡Hola! ¿Cómo estás? ¿En qué puedo ayudarte hoy?" to "¡Hola! Soy Diego. Hoy me compré una bicicleta…",
# the retries then copied the message or greeted again: bench conversation dev-es-bici, session 23).
_SAID_NOTHING_NUDGES = {
    "": "Reply to {user} as {persona}: react to what {user} just told you, in a sentence of your own.",
    "en": "Reply to {user} as {persona}, in English: react to what {user} just told you, in a sentence of your own.",
    "ja": "{persona}として{user}さんに日本語で返事。{user}さんが今話してくれたことに、自分の言葉で反応する",
    "zh": "以{persona}的身份用中文回复{user}：用自己的话回应{user}刚才说的事",
    "ko": "{persona}로서 {user}님에게 한국어로 답장: {user}님이 방금 말한 이야기에 자신의 말로 반응하기",
    "es": "Responde a {user} como {persona}, en español: reacciona a lo que {user} te acaba de contar, con una frase tuya.",
    "fr": "Réponds à {user} en tant que {persona}, en français : réagis à ce que {user} vient de te raconter, avec tes mots.",
    "de": "Antworte {user} als {persona}, auf Deutsch: geh in eigenen Worten auf das ein, was {user} gerade erzählt hat.",
    "pt": "Responda a {user} como {persona}, em português: reaja ao que {user} acabou de contar, com uma frase sua.",
    "it": "Rispondi a {user} come {persona}, in italiano: reagisci a quello che {user} ti ha appena raccontato, con parole tue.",
}
# The last attempt after service talk or a greeting twice to something told. Said in English with the
# language named: on dev-ja-speech's 「何を話すかまだ全然決めてないんだよね。思い出が多すぎて。」 (the user got no
# reply, sessions 25–26) the 1.5B model said back "react in your own words" and four Japanese lines asking for
# a question or a remark (「美咲さんが今話してくれたことは何か？」, the message itself, 「ご期待ください。」); this
# one got 「そのニュースは本当に興味深いです。」 (bench conversation, session 27).
_NO_HELP_NUDGE = ("Reply to {user} as {persona}{in_language}. Do not offer help: say what you think of {user}'s news "
                  "in one short sentence.")
_NO_HELP_NUDGES = {"": _NO_HELP_NUDGE.replace("{in_language}", "")} | {
    code: _NO_HELP_NUDGE.replace("{in_language}", f", in {name}") for code, name in LANGUAGE_NAMES.items()}

# A reply asked for again after it said the persona had nothing on its mind while the prompt said what it had
# wondered (agent/on_mind.py): the thought itself in the line.
_THOUGHT_NUDGES = {
    "": "Reply to {user} as {persona}: you have been wondering about something {user} told you; ask {user}: {thought}",
    "en": "Reply to {user} as {persona}, in English: you have been wondering about something {user} told you; ask "
          "{user}: {thought}",
    "ja": "{persona}として{user}さんに日本語で返事。前から気になっていたことを聞く：{thought}",
    "zh": "以{persona}的身份用中文回复{user}：问问你一直想知道的事：{thought}",
    "ko": "{persona}로서 {user}님에게 한국어로 답장: 궁금했던 것을 물어보기: {thought}",
    "es": "Responde a {user} como {persona}, en español: pregúntale lo que te has estado preguntando: {thought}",
    "fr": "Réponds à {user} en tant que {persona}, en français : demande-lui ce que tu te demandais : {thought}",
    "de": "Antworte {user} als {persona}, auf Deutsch: frag, was du dich gefragt hast: {thought}",
    "pt": "Responda a {user} como {persona}, em português: pergunte o que você estava se perguntando: {thought}",
    "it": "Rispondi a {user} come {persona}, in italiano: chiedi ciò che ti stavi chiedendo: {thought}",
}

RETRY_AFTER_NOT_KNOWING, RETRY_AFTER_TAKING_NAME, RETRY_AFTER_SAYING_NOTHING = "told_before", "took_name", "said_nothing"
RETRY_AFTER_SERVICE_TALK_TWICE, RETRY_AFTER_DENYING_THOUGHT = "service_talk_twice", "denied_thought"
_NUDGES_FOR = {"": _RETRY_NUDGES, RETRY_AFTER_NOT_KNOWING: _TOLD_BEFORE_NUDGES, RETRY_AFTER_TAKING_NAME: _TOOK_NAME_NUDGES,
               RETRY_AFTER_SAYING_NOTHING: _SAID_NOTHING_NUDGES, RETRY_AFTER_SERVICE_TALK_TWICE: _NO_HELP_NUDGES,
               RETRY_AFTER_DENYING_THOUGHT: _THOUGHT_NUDGES}


def retry_nudge(language: str, persona: str, user: str, reason: str = "", thought: str = "") -> str:
    """The line after the user's words on a retry; `reason`: what failed (RETRY_AFTER_…), "" for the rest;
    `thought`: what is on the persona's mind (agent/on_mind.py)."""
    nudges = _NUDGES_FOR[reason]
    template = nudges.get(language, nudges[""])
    return template.format(persona=persona, user=user, thought=thought)


def every_retry_nudge(language: str, persona: str, user: str, thought: str = "") -> tuple[str, ...]:
    """The lines a retry may be nudged by, one per reason: the prompt leaves room for the longest."""
    return tuple(retry_nudge(language, persona, user, reason, thought) for reason in _NUDGES_FOR
                 if thought or reason != RETRY_AFTER_DENYING_THOUGHT)


def reply_reminder(language: str, persona: str, user: str, brief: bool = False) -> str:
    """A few words, in the language of the message being answered; empty if it has none.
    `brief`: the user asked for a short answer."""
    template = (_BRIEF_REMINDERS if brief else _REMINDERS).get(language)
    return template.format(persona=persona, user=user) if template else ""
