"""Nexus Ark: `python nexus_ark.py` serves the UI on 127.0.0.1:7860.

Subcommands: `setup-model` (assemble and verify the embedded model), `sleep [PERSONA]` (tonight's
sleep-time work now: episodes of the finished days), `bench chat` (time to
first token on the embedded model), `bench conversation` (scripted conversations through the
chat path, scored by shared/bench/conversation_checks.py), `bench qa` (LoCoMo questions answered by
the embedded model; `--episodes DIR` adds the daily episodes `bench episodes --out DIR` wrote),
`bench sleep-crash` (SIGKILLs during sleep-time work: every file parses, no episode duplicated or
lost; `--model scripted|local`), `bench budgets` (the prompt's sections against their token budgets with two years of memories); `bench conversation|qa|docqa --provider openai --base-url URL --model NAME`
(or `--from-settings`) measure another model. Options: --host, --port, --data-dir, --user.
Off loopback (--host other than 127.x.x.x, ::1, localhost) the app only starts with a password
in $NEXUS_ARK_PASSWORD, and asks for it (user "nexus", or --user) before showing anything.
"""
from __future__ import annotations

import argparse
import logging
import os
import signal
import sys
import time
from pathlib import Path

import constants

APP_DIR = Path(__file__).resolve().parent

# Offline by design: set before gradio or huggingface code is imported anywhere.
os.environ.setdefault("GRADIO_ANALYTICS_ENABLED", "False")
os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("HF_HUB_DISABLE_TELEMETRY", "1")
# numpy's BLAS threads keep spinning after each vector scan and starve the embedder's and
# llama.cpp's own threads on two cores: one BLAS thread made recall's p95 at 100k messages
# 40 ms instead of 117 ms (BENCHMARKS.md §2). Set before numpy is imported anywhere.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

log = logging.getLogger("nexus_ark")


def data_dir_from(arg: str | None) -> Path:
    return Path(arg or os.environ.get(constants.DATA_DIR_ENV) or APP_DIR / "data").expanduser().resolve()


def progress(message: str) -> None:
    log.info(message)


def cmd_setup_model(args) -> int:
    from managers.config import DataPaths
    from managers.model_assets import ModelAssemblyError, ensure_model

    path = DataPaths(data_dir_from(args.data_dir)).embedded_model
    try:
        ensure_model(path, progress)
    except ModelAssemblyError as exc:
        log.error("Could not set up the model: %s", exc)
        return 1
    return 0


def cmd_reindex(args) -> int:
    from persona.service import NexusService

    service = NexusService(data_dir_from(args.data_dir))
    names = [args.persona] if args.persona else service.persona_names()
    for name in names:
        indexer = service.memory_index(name)
        report = (indexer.rebuild if args.rebuild else indexer.update)(
            lambda message, fraction: log.info("%s: %s (%.0f%%)", name, message, fraction * 100))
        log.info("%s: %s", name, report)
    return 0


def cmd_sleep(args) -> int:
    """Run tonight's sleep-time work now, for one persona or all, with progress on the console."""
    from persona.service import NexusService
    from persona.sleep import SleepBusy

    service = NexusService(data_dir_from(args.data_dir))
    names = [args.persona] if args.persona else service.persona_names()
    if args.persona and args.persona not in names:
        log.error("No persona called %r (there are: %s).", args.persona, ", ".join(service.persona_names()))
        return 2
    failed = 0
    for name in names:
        try:
            report = service.sleep_now(
                name, lambda what, done, name=name: log.info("%s: %s (%.0f%%)", name, what, done * 100),
                wait_for_reply_s=constants.SLEEP_NOW_REPLY_WAIT_S)
        except SleepBusy as exc:
            log.error("%s", exc)
            failed += 1
            continue
        log.info("%s: %s in %.1f s, %d model calls%s", name, ", ".join(report.written) or "nothing to write",
                 report.wall_s, report.model_calls, "; problems: " + "; ".join(report.problems) if report.problems else "")
        failed += bool(report.problems)
    service.close()
    return 1 if failed else 0


class PasswordRequired(Exception):
    """Serving beyond this machine without a password: refused."""


def is_loopback(host: str) -> bool:
    """True when only this machine can reach `host`: localhost, 127.0.0.0/8, ::1.

    0.0.0.0 and :: (every interface) are not loopback, and neither is any other name: it may
    resolve to an address the network can reach. (One rule with the local-server look-up's.)
    """
    from agent.providers.discovery import is_loopback_host

    return is_loopback_host(host)


def launch_auth(host: str, user: str, password: str) -> tuple[str, str] | None:
    """Gradio's `auth=` for serving on `host`: a password given is always used, and off loopback
    one is required (PasswordRequired otherwise)."""
    if password:
        return (user, password)
    if is_loopback(host):
        return None
    raise PasswordRequired(
        f"Refusing to serve on {host} without a password: anyone on your network could read your "
        f"chats and settings. Set {constants.PASSWORD_ENV} (the user name is {user!r}; --user changes "
        f"it), or serve on loopback only (--host {constants.DEFAULT_HOST}).")


def serve(args) -> int:
    started = time.monotonic()
    try:
        auth = launch_auth(args.host, args.user, os.environ.get(constants.PASSWORD_ENV, ""))
    except PasswordRequired as exc:
        log.error("%s", exc)
        return 2
    from persona.heap import freeze_long_lived
    from persona.service import NexusService
    from ui.app import THEME, build_app

    if not is_loopback(args.host):
        log.warning("Serving on %s: other machines on your network can reach this app. It asks for the "
                    "password, over plain HTTP: use it only on a network you trust.", args.host)
    service = NexusService(data_dir_from(args.data_dir))
    demo = build_app(service)
    demo.queue(default_concurrency_limit=4)
    demo.launch(
        server_name=args.host, server_port=args.port, auth=auth, share=False, ssr_mode=False, theme=THEME,
        inbrowser=False, show_error=False, prevent_thread_lock=True, quiet=True,
    )
    log.info("Nexus Ark is up on http://%s:%d (%.1f s); press Ctrl-C to quit.", args.host, args.port,
             time.monotonic() - started)
    freeze_long_lived()
    # After the line above: while llama.cpp loads a model it points the process's stderr at
    # /dev/null (llama-cpp-python, verbose=False), which swallowed log lines written meanwhile.
    service.start_background_warmup()
    # Ollama / LM Studio / llama.cpp's server on 127.0.0.1, for the first-run note and Settings:
    # a few loopback requests in their own thread, after the page is up.
    service.start_local_server_discovery()
    # Sleep-time work once a night (Settings: on by default, quiet hours, idle minutes).
    scheduler = service.start_sleep_scheduler()
    signal.signal(signal.SIGTERM, _stop_on_sigterm)  # `kill` and service managers: shut down cleanly too
    try:
        while True:
            time.sleep(1.0)
    except KeyboardInterrupt:
        log.info("Shutting down.")
        demo.close()
    finally:
        scheduler.stop()
        service.close()
    return 0


def _stop_on_sigterm(signum, frame) -> None:
    raise KeyboardInterrupt


def cmd_bench(args) -> int:
    from bench.chat_bench import main as bench_chat_main
    from managers.config import DataPaths

    if args.what == "chat":
        return bench_chat_main(args, DataPaths(data_dir_from(args.data_dir)).embedded_model)
    if args.what == "cjk":
        from bench.cjk_recall import main as bench_cjk_main

        return bench_cjk_main(args)
    if args.what == "scale":
        from bench.scale_bench import main as bench_scale_main

        return bench_scale_main(args)
    if args.what == "locomo":
        from bench.locomo_bench import main as bench_locomo_main

        return bench_locomo_main(args)
    if args.what in ("conversation", "qa", "docqa", "episodes", "nights"):
        return _bench_a_model(args)
    if args.what == "keep":
        from bench.keep_bench import main as bench_keep_main

        return bench_keep_main(args)
    if args.what == "sleep-crash":
        from bench.sleep_crash_bench import main as bench_sleep_crash_main

        return bench_sleep_crash_main(args, DataPaths(data_dir_from(args.data_dir)).embedded_model)
    if args.what == "budgets":
        from bench.budgets_bench import main as bench_budgets_main

        return bench_budgets_main(args, DataPaths(data_dir_from(args.data_dir)).embedded_model)
    log.error("Unknown benchmark %r", args.what)
    return 2


def _bench_a_model(args) -> int:
    """The benches that measure a chat model: the embedded one, or what --provider / --base-url /
    --model / --from-settings name (bench/provider_choice.py)."""
    from bench.provider_choice import BenchProviderError, bench_model
    from managers.config import DataPaths

    data_dir = data_dir_from(args.data_dir)
    try:
        chosen = bench_model(args, data_dir)
    except BenchProviderError as exc:
        log.error("bench %s: %s", args.what, exc)
        return 2
    embedded = DataPaths(data_dir).embedded_model
    if args.what == "conversation":
        from bench.conversation_bench import main as bench_conversation_main

        return bench_conversation_main(args, embedded, chosen=chosen)
    if args.what == "episodes":
        from bench.episodes_bench import main as bench_episodes_main

        return bench_episodes_main(args, embedded, chosen)
    if args.what == "nights":
        from bench.nights_bench import main as bench_nights_main

        return bench_nights_main(args, embedded, chosen)
    if args.what == "qa":
        from bench.qa_bench import main as bench_qa_main

        return bench_qa_main(args, embedded, chosen)
    from bench.docqa_bench import main as bench_docqa_main

    return bench_docqa_main(args, embedded, chosen)


def parser() -> argparse.ArgumentParser:
    from bench.provider_choice import add_provider_arguments

    p = argparse.ArgumentParser(prog="nexus_ark.py", description=__doc__)
    p.add_argument("--host", default=constants.DEFAULT_HOST)
    p.add_argument("--port", type=int, default=constants.DEFAULT_PORT)
    p.add_argument("--data-dir", default=None, help=f"user data (default ./data, or ${constants.DATA_DIR_ENV})")
    p.add_argument("--user", default=constants.DEFAULT_AUTH_USER,
                   help=f"sign-in user name when ${constants.PASSWORD_ENV} is set (required off loopback)")
    sub = p.add_subparsers(dest="command")
    sub.add_parser("serve", help="serve the UI (the default)")
    sub.add_parser("setup-model", help="assemble and verify the embedded model")
    sleep = sub.add_parser("sleep", help="run tonight's sleep-time work now (episodes of finished days)")
    sleep.add_argument("persona", nargs="?", default="", help="one persona (default: all)")
    reindex = sub.add_parser("reindex", help="bring the memory indexes up to date (or --rebuild them)")
    reindex.add_argument("--persona", default="")
    reindex.add_argument("--rebuild", action="store_true", help="delete the derived indexes and build them anew")
    bench = sub.add_parser("bench", help="benchmarks")
    bench.add_argument("what", choices=["chat", "locomo", "scale", "cjk", "conversation", "qa", "docqa", "keep",
                                        "episodes", "sleep-crash", "budgets", "nights"])
    bench.add_argument("files", nargs="*")
    bench.add_argument("--json", action="store_true")
    bench.add_argument("--turns", type=int, default=4)
    bench.add_argument("--history", type=int, default=1000)
    bench.add_argument("--copy-of", default="", help="chat, scale: run on a copy of this data directory (persona Ark)")
    bench.add_argument("--embedder", default=constants.DEFAULT_EMBEDDER)
    bench.add_argument("--no-rerank", action="store_true", help="ablation: fused relevance only")
    bench.add_argument("--distractors", type=int, default=0,
                       help="locomo: this many synthetic messages before each conversation (recall at scale)")
    bench.add_argument("--exact", action="store_true", help="locomo: exact dense search at any size")
    bench.add_argument("--per-category", type=int, default=25, help="qa: questions per category (1-4), pooled over the files")
    bench.add_argument("--seed", type=int, default=0, help="qa: the sample's and the model's sampling seed")
    bench.add_argument("--conditions", default="",
                       help="qa: a subset of none,app,oracle; docqa: of without,with (default: all)")
    bench.add_argument("--memory-budget", type=int, default=0,
                       help="qa, docqa: the app's per-turn context budget in tokens (default: the app's)")
    bench.add_argument("--out", default="", help="qa, docqa: write every question's replies and scores to this JSON "
                       "file; episodes: the folder for <file stem>.json; nights: for <stem>-memory and <stem>-fields.json")
    bench.add_argument("--episodes-only", action="store_true",
                       help="episodes: only the nights' episode work (the coverage, without the diary, entities, dream)")
    bench.add_argument("--resume", action="store_true",
                       help="episodes: go on from the nights a stopped run with this --out finished")
    bench.add_argument("--episodes", default="", metavar="DIR",
                       help="qa: the persona also has the daily episodes `bench episodes FILE --out DIR` wrote "
                            "(DIR/<file stem>.json), as after the nights (default: none)")
    bench.add_argument("--weights", default="", help='ablation: recall weights as JSON, e.g. {"turn": 1}')
    bench.add_argument("--repeats", type=int, default=1,
                       help="conversation: run every script this many times, each with its own seed")
    bench.add_argument("--transcripts", default="", help="conversation: write the transcripts here (default: a temp dir)")
    bench.add_argument("--quick", action="store_true", help="conversation: three scripts, one run (a few minutes)")
    bench.add_argument("--shared", default="", help="conversation: the shared folder (default $NEXUS_ARK_SHARED_DIR, else ../shared)")
    bench.add_argument("--limit", type=int, default=0, help="docqa: only the first N questions")
    bench.add_argument("--kills", type=int, default=20, help="sleep-crash: SIGKILLs inside the night's work")
    bench.add_argument("--days", type=int, default=0,
                       help="sleep-crash: days of conversation before the first night (default 5); "
                            "nights: only the nights after the first N days (default all)")
    bench.add_argument("--from", dest="from_dir", default="",
                       help="nights: score this run's memory folder (DIR/<stem>-memory) offline, no model")
    bench.add_argument("--labels", default="", help="nights: the labels file (default bench/data/night_labels.json)")
    bench.add_argument("--classifier", action="store_true", help="keep: the grammar and the trained second reader, "
                       "each part scored by weights fitted without it")
    bench.add_argument("--train", action="store_true", help="keep: fit the second reader and write agent/keep_classifier.json")
    bench.add_argument("--set", default="", help="keep: score a set kept apart (e.g. bench/data/keep_blind16.json) "
                       "by the grammar and the shipped second reader")
    add_provider_arguments(bench)
    return p


def main(argv: list[str] | None = None) -> int:
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s",
                        stream=sys.stderr)
    args = parser().parse_args(argv)
    if args.command == "setup-model":
        return cmd_setup_model(args)
    if args.command == "reindex":
        return cmd_reindex(args)
    if args.command == "sleep":
        return cmd_sleep(args)
    if args.command == "bench":
        return cmd_bench(args)
    return serve(args)


if __name__ == "__main__":
    sys.exit(main())
