"""What the chat tells the user when the persona gave no reply, in the language of their message.

An app line, not the persona's words: a Portuguese user was told "Ark could not find words this
time…" in English (§4, session 36, dev-mixed-pt-en). The button it names is the page's, in English.
"""
from __future__ import annotations

_EMPTY_REPLY = {
    "en": "{persona} could not find words this time: the model gave only empty replies. "
          "Nothing was saved as a reply; press “Regenerate last reply” or send your message again.",
    "ja": "{persona}は今回、言葉が見つかりませんでした（モデルの返事が空でした）。返事は何も保存されていません。"
          "「Regenerate last reply」を押すか、もう一度メッセージを送ってください。",
    "zh": "{persona}这次没能找到要说的话（模型只给出了空回复）。没有保存任何回复；请点击“Regenerate last reply”或重新发送消息。",
    "ko": "이번에는 {persona}의 답이 비어 있었어요(모델이 빈 답만 냈어요). 저장된 답은 없어요. "
          "'Regenerate last reply'를 누르거나 메시지를 다시 보내 주세요.",
    "es": "{persona} no encontró palabras esta vez: el modelo solo dio respuestas vacías. "
          "No se guardó ninguna respuesta; pulsa «Regenerate last reply» o vuelve a enviar tu mensaje.",
    "fr": "{persona} n'a pas trouvé ses mots cette fois : le modèle n'a donné que des réponses vides. "
          "Aucune réponse n'a été enregistrée ; appuyez sur « Regenerate last reply » ou renvoyez votre message.",
    "de": "{persona} hat diesmal keine Worte gefunden: Das Modell gab nur leere Antworten. "
          "Es wurde keine Antwort gespeichert; drücke „Regenerate last reply“ oder sende deine Nachricht noch einmal.",
    "pt": "{persona} não encontrou palavras desta vez: o modelo só deu respostas vazias. "
          "Nenhuma resposta foi guardada; clique em “Regenerate last reply” ou envie a mensagem de novo.",
    "it": "{persona} stavolta non ha trovato le parole: il modello ha dato solo risposte vuote. "
          "Nessuna risposta è stata salvata; premi «Regenerate last reply» o invia di nuovo il messaggio.",
}


def empty_reply_notice(language: str, persona: str) -> str:
    """The chat's notice for a turn whose every attempt was empty, in `language` (English when
    the app has no words for it)."""
    return _EMPTY_REPLY.get(language, _EMPTY_REPLY["en"]).format(persona=persona)


# The persona's word when the app kept a "please remember" note and every attempt at a reply failed: the note is
# kept and the chat says so (agent/tools.py), so the turn ends with an acknowledgement, not the notice above — a new
# user read "Guardado en la memoria central" and then that no reply could be found (session 48).
_KEPT_ACKNOWLEDGEMENT = {
    "en": "Got it, I'll remember that.", "ja": "わかった、覚えておくね。", "zh": "好的，我记住了。", "ko": "알겠어, 기억해 둘게.",
    "es": "¡Entendido! Lo tendré presente.", "fr": "C'est noté, je m'en souviendrai.", "de": "Alles klar, das merke ich mir.",
    "pt": "Combinado, vou me lembrar disso.", "it": "Va bene, me lo ricorderò.",
}


def kept_acknowledgement(language: str) -> str:
    """The persona's short "got it" to a note the app kept, in `language` (English when the app has no words for it)."""
    return _KEPT_ACKNOWLEDGEMENT.get(language, _KEPT_ACKNOWLEDGEMENT["en"])
