"""Child process for the keep-request crash trials: sends "please remember" requests, one after
another, through a slow recall and a slow scripted reply, until it is killed."""
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from agent.providers.fake import ScriptedChatModel, replies  # noqa: E402
from agent.retrieval import RetrievalResult  # noqa: E402
from persona.service import NexusService  # noqa: E402

REPLY = " ".join(f"noted{i}" for i in range(40))
RECALL_S = 0.15  # the time between the message reaching the log and the note being written


def slow_recall(query, now):
    time.sleep(RECALL_S)
    return RetrievalResult(True, "crash trial")


def request(number: int) -> str:
    forms = ("Please remember that locker {n} is mine.", "覚えておいて：ロッカーは{n}番。", "记住，我的柜子是{n}号。",
             "Don't forget: my locker is {n}.", "Merk dir bitte: mein Spind ist {n}.")
    return forms[number % len(forms)].format(n=number)


def main(data_dir: str, first: int) -> None:
    model = ScriptedChatModel(replies(REPLY), delay_per_piece_s=0.005)
    service = NexusService(Path(data_dir), model_factory=lambda s, k, p: model, searcher=slow_recall,
                           after_turn_work=False)
    service.session("Ark")
    print("READY", flush=True)
    for number in range(first, first + 50):
        for _ in service.send("Ark", request(number)):
            pass


if __name__ == "__main__":
    main(sys.argv[1], int(sys.argv[2]))
