"""A seeded, bilingual (ja/en) synthetic chat history: daily sessions, written through the
real chat log so benchmarks measure the files a user would have."""
from __future__ import annotations

import random
from datetime import datetime, timedelta, timezone
from pathlib import Path

from managers.chat_log import LogEntry, format_entry
from managers.store import append_durably

USER_LINES = [
    "Today I went to {place} with {friend}.", "今日は{friend}と{place}に行ったよ。",
    "I'm reading a book about {topic}.", "最近{topic}の本を読んでるんだ。",
    "Do you remember what I said about {topic}?", "{topic}のこと、前に話したっけ？",
    "Work was busy, I had a meeting about {topic}.", "仕事が忙しくて、{topic}の会議があった。",
    "My cat {pet} knocked over a cup again.", "猫の{pet}がまたコップを倒したの。",
]
AGENT_LINES = [
    "That sounds lovely. How was {place}?", "{place}、楽しそう！どうだった？",
    "Tell me more about {topic}.", "{topic}の話、もっと聞かせて。",
    "{pet} again? Is everything all right?", "また{pet}が？大丈夫だった？",
    "I'm glad you told me. I'll remember that.", "話してくれてうれしい。覚えておくね。",
]
FILL = {
    "place": ["the park", "Kyoto", "the library", "海", "駅前のカフェ", "the museum"],
    "friend": ["Ken", "Yui", "Sam", "田中さん", "佐藤さん"],
    "topic": ["astronomy", "gardening", "料理", "旅行の計画", "jazz", "programming"],
    "pet": ["Tama", "タマ", "Mochi"],
}


def _line(rng: random.Random, templates: list[str]) -> str:
    return rng.choice(templates).format(**{k: rng.choice(v) for k, v in FILL.items()})


def seed_history(logs_dir: Path, messages: int, seed: int = 7, user: str = "User", persona: str = "Ark",
                 end: datetime | None = None, per_day: int = 20) -> int:
    """Write `messages` alternating USER/AGENT entries, `per_day` a day, ending near `end`."""
    rng = random.Random(seed)
    end = end or datetime(2026, 11, 1, tzinfo=timezone.utc)
    days = max(1, messages // per_day)
    start = end - timedelta(days=days)
    state = {"t": start}
    # Written month by month in one go (the app appends one fsync'd entry at a time; for a
    # 100k-message history that would only measure the disk), in exactly the app's format.
    by_month: dict[str, list[str]] = {}
    for i in range(messages):
        day, slot = divmod(i, per_day)
        state["t"] = start + timedelta(days=day, hours=19, minutes=slot * 2)
        role, name, lines = ("USER", user, USER_LINES) if i % 2 == 0 else ("AGENT", persona, AGENT_LINES)
        entry = LogEntry(role, name, _line(rng, lines), f"{state['t']:%Y%m%dT%H%M%S}-{i:06x}", state["t"])
        by_month.setdefault(f"{state['t']:%Y-%m}", []).append(format_entry(entry))
    logs_dir.mkdir(parents=True, exist_ok=True)
    for month, chunks in by_month.items():
        append_durably(logs_dir / f"{month}.txt", "".join(chunks))
    return messages
