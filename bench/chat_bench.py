"""`python nexus_ark.py bench chat [--json]`: the embedded model, timed the way a user feels it.

Starts the real app (a subprocess on a free port) on a character with a seeded history,
measures cold start until the page answers, sends turn 1 at once, then follow-up turns, and
reports time to first token per turn, generation speed and the app's peak RSS.
"""
from __future__ import annotations

import json
import logging
import os
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

import constants
from bench.synthetic_history import seed_history

log = logging.getLogger(__name__)
APP = Path(__file__).resolve().parent.parent / "nexus_ark.py"
TURNS = [
    "Hi Ark, I'm back. Today I planted tomatoes in the garden.",
    "What do you think I should plant next to them?",
    "ところで、猫のタマは元気だよ。",
    "Thanks! Let's talk again tomorrow.",
]


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def wait_for_page(url: str, timeout: float) -> float:
    started = time.monotonic()
    while time.monotonic() - started < timeout:
        try:
            with urllib.request.urlopen(url, timeout=1) as response:
                if response.status == 200:
                    return time.monotonic() - started
        except OSError:
            time.sleep(0.05)
    raise TimeoutError(f"{url} did not answer within {timeout} s")


def peak_rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
    return 0.0


def _last_text(chat) -> str:
    content = chat[-1]["content"] if chat else ""
    if isinstance(content, list):
        content = "".join(part.get("text", "") for part in content)
    return content if chat and chat[-1]["role"] == "assistant" else ""


def timed_turn(client, text: str) -> tuple[float, float, str]:
    """(time to first visible token, seconds generating after it, final reply) of one turn."""
    started = time.monotonic()
    first, reply = None, ""
    job = client.submit("Ark", text, [], api_name="/send")
    for output in job:
        reply = _last_text(output[0]) or reply
        if first is None and reply.strip() not in ("", "…"):
            first = time.monotonic() - started
    total = time.monotonic() - started
    first = first if first is not None else total
    return first, total - first, reply


def token_counter(model_path: Path):
    from llama_cpp import Llama

    vocab = Llama(model_path=str(model_path), vocab_only=True, verbose=False)
    return lambda text: len(vocab.tokenize(text.encode("utf-8"), add_bos=False))


def run(turns: int, history: int, model_path: Path, copy_of: Path | None = None) -> dict:
    """`copy_of`: talk to a copy of this data directory (its persona Ark) instead of a seeded one."""
    from gradio_client import Client


    with tempfile.TemporaryDirectory(prefix="nexus-bench-") as tmp:
        data_dir = Path(tmp) / "data"
        env = dict(os.environ, **{constants.MODEL_PATH_ENV: str(model_path)})
        if copy_of is not None:  # a copy: the benchmark's own messages never touch the original
            shutil.copytree(copy_of, data_dir)
        else:  # seed the persona: start from the bundled sample, then write history to its log
            from persona.service import NexusService

            NexusService(data_dir)
            seed_history(data_dir / "characters" / "Ark" / "logs", history)
        count_tokens = token_counter(model_path)
        app, port, cold_start = start_app(data_dir, env)
        try:
            client = Client(f"http://127.0.0.1:{port}/", verbose=False)
            ttft, gen_time, gen_tokens = [], 0.0, 0
            for i in range(turns):
                first, generating, reply = timed_turn(client, TURNS[i % len(TURNS)])
                ttft.append(round(first, 2))
                if i > 0:
                    gen_time += generating
                    gen_tokens += max(0, count_tokens(reply) - 1)  # the first token is in ttft
            rss = peak_rss_mb(app.pid)
        finally:
            stop_app(app)
        # Second start on the same data: wait until the page says the persona is ready, then talk.
        app, port, _ = start_app(data_dir, env)
        try:
            client = Client(f"http://127.0.0.1:{port}/", verbose=False)
            ready_s = wait_until_ready(client, 300)
            first_after_ready, _, _ = timed_turn(client, TURNS[0])
        finally:
            stop_app(app)
        # The app logs when its first token left the model: the rest of the wait is the page's path.
        server_ttft = [float(m) for log_file in sorted(Path(tmp).glob("server-*.log"))
                       for m in re.findall(r"First token after ([0-9.]+) s", log_file.read_text())]
    return {
        "ttft_s": ttft,
        "tokens_per_s": round(gen_tokens / gen_time, 1) if gen_time else None,
        "cold_start_s": round(cold_start, 2),
        "peak_rss_mb": round(rss, 0),
        "history_messages": history if copy_of is None else f"copy of {copy_of}",
        "ready_s": round(ready_s, 2),
        "first_turn_after_ready_ttft_s": round(first_after_ready, 2),
        "server_side_ttft_s": server_ttft,
    }


def start_app(data_dir: Path, env: dict) -> tuple[subprocess.Popen, int, float]:
    port = free_port()
    with open(data_dir.parent / f"server-{port}.log", "w") as server_log:  # the child keeps its own copy
        app = subprocess.Popen([sys.executable, str(APP), "--data-dir", str(data_dir), "--port", str(port)],
                               env=env, stdout=subprocess.DEVNULL, stderr=server_log)
    return app, port, wait_for_page(f"http://127.0.0.1:{port}/", 120)


def stop_app(app: subprocess.Popen) -> None:
    app.terminate()
    app.wait(timeout=30)


def wait_until_ready(client, timeout: float) -> float:
    """Seconds (from now) until the page's status line says the persona is ready."""
    started = time.monotonic()
    while time.monotonic() - started < timeout:
        if "ready" in str(client.predict("Ark", api_name="/status")[0]):
            return time.monotonic() - started
        time.sleep(0.5)
    raise TimeoutError("the persona never became ready")


def main(args, model_path: Path) -> int:
    from managers.model_assets import ensure_model

    ensure_model(model_path, log.info)
    result = run(args.turns, args.history, model_path, Path(args.copy_of) if args.copy_of else None)
    if args.json:
        print(json.dumps(result))
    else:
        for key, value in result.items():
            print(f"{key}: {value}")
    return 0
