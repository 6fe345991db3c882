"""Child process for the crash test: sends one message and streams a slow scripted reply."""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from agent.providers.fake import ScriptedChatModel, replies  # noqa: E402
from persona.service import NexusService  # noqa: E402

REPLY = " ".join(f"word{i}" for i in range(400))


def main(data_dir: str) -> None:
    model = ScriptedChatModel(replies(REPLY), delay_per_piece_s=0.02)
    service = NexusService(Path(data_dir), model_factory=lambda s, k, p: model)
    for event in service.send("Ark", "Tell me a very long story, please."):
        if event.kind == "token":
            print("TOKEN", flush=True)


if __name__ == "__main__":
    main(sys.argv[1])
