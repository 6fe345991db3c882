"""A message longer than the model's context is cut to what fits, with a note in the chat; the log
keeps it whole. Never an error."""
import math

import constants
from agent.prompt_builder import MESSAGE_CUT_MARK, HistoryWindow, PromptSection, build_prompt
from agent.providers.fake import ScriptedChatModel, replies
from persona.service import NexusService


def count(text: str) -> int:
    return math.ceil(len(text) / 3)


def test_a_message_longer_than_the_context_leaves_room_for_is_cut_with_a_mark():
    static = [PromptSection("identity", "Who you are", "I am Ark.")]
    budgets = {"identity": 100, "dynamic": 100}
    prompt = build_prompt(static, HistoryWindow((), ""), [], "word " * 3000, budgets, count, context_tokens=1000)
    sent = prompt.messages[-1].content
    assert sent.endswith(MESSAGE_CUT_MARK) and sent.startswith("word word")
    total = sum(count(m.content) + constants.CHAT_TEMPLATE_TOKENS_PER_MESSAGE for m in prompt.messages)
    assert total <= 1000
    assert prompt.message_kept == len(sent) - len(MESSAGE_CUT_MARK) > 2000


def test_a_message_that_fits_is_sent_whole():
    static = [PromptSection("identity", "Who you are", "I am Ark.")]
    prompt = build_prompt(static, HistoryWindow((), ""), [], "Hello there!", {"identity": 100}, count,
                          context_tokens=1000)
    assert prompt.messages[-1].content == "Hello there!" and prompt.message_kept is None


def test_a_100k_character_message_is_answered_with_a_note_and_logged_whole(data_dir, clock):
    # An empty first reply: the retry adds its nudge line, and that prompt must fit too.
    model = ScriptedChatModel(replies("", "That is a lot to read! Here is what I think."))
    service = NexusService(data_dir, clock=clock, model_factory=lambda s, k, p: model)
    message = ("This is a very long message about my week. " * 2400)[: constants.MAX_MESSAGE_CHARS]
    events = list(service.send("Ark", message))
    assert not [e for e in events if e.kind == "error"]
    [note] = [e.text for e in events if e.kind == "tool"]
    assert "too long" in note and f"{len(message):,}" in note
    [done] = [e for e in events if e.kind == "done"]
    assert note in done.text and "That is a lot to read!" in done.text
    assert len(model.calls) == 2
    for messages, _ in model.calls:  # the reply's header counted as one more message
        prompt_tokens = sum(model.count_tokens(m.content) + constants.CHAT_TEMPLATE_TOKENS_PER_MESSAGE
                            for m in messages) + constants.CHAT_TEMPLATE_TOKENS_PER_MESSAGE
        assert prompt_tokens + constants.MAX_REPLY_TOKENS_LOCAL <= constants.LOCAL_N_CTX
        assert [m for m in messages if m.role == "user"][-1].content.endswith(MESSAGE_CUT_MARK)
    [user] = [e for e in service.conversation("Ark") if e.role == "USER"]
    assert user.text == message  # the log keeps every character
    # The next turn's prompt still fits: the long message is not carried whole in its history.
    list(service.send("Ark", "Did you read it?"))
    messages, _ = model.calls[-1]
    assert sum(model.count_tokens(m.content) for m in messages) + constants.MAX_REPLY_TOKENS_LOCAL <= constants.LOCAL_N_CTX
