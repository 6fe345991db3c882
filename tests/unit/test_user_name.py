"""The user's name, introduced in the chat: protected at once, offered to be saved, never claimed."""
from agent.providers.fake import ScriptedChatModel, replies
from persona.service import NexusService


def reply_of(service: NexusService, text: str) -> str:
    return "".join(e.text for e in service.send("Ark", text) if e.kind == "token").strip()


def test_an_introduced_name_is_never_taken_and_is_offered_to_be_saved(data_dir, clock):
    model = ScriptedChatModel(replies("Hello! I'm Ken. Just back from Mt. Takao!",
                                      "Hi Ken! A fox near the summit? Lucky you."))
    service = NexusService(data_dir, clock=clock, model_factory=lambda s, k, p: model)
    assert service.name_offer("Ark") == ""
    shown = reply_of(service, "Hi! I'm Ken. I just got back from hiking on Mt. Takao and saw a fox.")
    # the first reply took his name: asked again, going on from the greeting it had shown at once
    assert shown == "Hello! A fox near the summit? Lucky you."
    assert "Ken" in model.calls[1][0][0].content  # the prompt now knows who is talking
    assert service.name_offer("Ark") == "Ken"
    service.answer_name_offer("Ken", save=True)
    assert service.settings.user_name == "Ken" and service.name_offer("Ark") == ""
    assert NexusService(data_dir, clock=clock, model_factory=lambda s, k, p: model).settings.user_name == "Ken"


def test_a_declined_name_is_not_offered_again_and_a_set_name_is_kept(data_dir, clock):
    model = ScriptedChatModel(replies("Nice to meet you!"))
    service = NexusService(data_dir, clock=clock, model_factory=lambda s, k, p: model)
    reply_of(service, "こんにちは！ハルカです。")
    assert service.name_offer("Ark") == "ハルカ"
    service.answer_name_offer("ハルカ", save=False)
    assert service.name_offer("Ark") == "" and service.settings.user_name == "User"
    service.update_settings(user_name="Haruka")
    reply_of(service, "I'm Tom, by the way.")  # Settings has a name: no offer, no switch
    assert service.name_offer("Ark") == "" and service.user_name_for("Ark") == "Haruka"


def test_the_user_asking_for_their_name_gets_it(data_dir, clock):
    model = ScriptedChatModel(replies("ハルカだよ！ちゃんと覚えてる。"))
    service = NexusService(data_dir, clock=clock, model_factory=lambda s, k, p: model)
    service.update_settings(user_name="ハルカ")
    assert reply_of(service, "私の名前、覚えてる？") == "ハルカだよ！ちゃんと覚えてる。"


def test_the_introduced_name_follows_an_edit_or_a_deletion_of_the_message_that_gave_it(data_dir, clock):
    model = ScriptedChatModel(replies("Nice to meet you!"))
    service = NexusService(data_dir, clock=clock, model_factory=lambda s, k, p: model)
    reply_of(service, "Hi! I'm Tom. I just moved here.")
    assert service.name_offer("Ark") == "Tom"  # read once, then kept until the log changes
    introduction = next(e for e in service.session("Ark").chat_log.view() if e.role == "USER")
    service.edit_message("Ark", introduction.id, "Hi! I'm Tomas. I just moved here.")
    assert service.name_offer("Ark") == "Tomas"
    service.delete_message("Ark", introduction.id)
    assert service.name_offer("Ark") == ""
