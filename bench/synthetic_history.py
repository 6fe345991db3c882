"""A seeded, bilingual (ja/en) synthetic chat history: daily sessions, written through the
real chat log so benchmarks measure the files a user would have.

Messages come from templates with several slots, each filled from lists of a few dozen values,
plus numbers and times, so a 100k-message history has tens of thousands of distinct messages and
most content words occur in well under 1 % of them, as in real chat. (Until session 4 it had
134 distinct messages; every query term then matched thousands of rows, BENCHMARKS.md §2.)
"""
from __future__ import annotations

import random
from datetime import datetime, timedelta, timezone
from pathlib import Path

from managers.chat_log import LogEntry, format_entry
from managers.store import append_durably

USER_LINES = [
    "Today I went to {place} with {friend}.",
    "I'm reading a book about {topic}. It's {feeling} so far.",
    "Do you remember what I said about {topic}?",
    "Work was busy, I had a meeting about {topic} at {hour}.",
    "My cat {pet} knocked over {object} again.",
    "I had {food} for dinner, it cost {price} dollars.",
    "{friend} and I are planning to try {activity} next {weekday}.",
    "I lost my {object} somewhere near {place}.",
    "It rained all day, so I stayed home and watched a film about {topic}.",
    "I finally finished {activity} practice, {minutes} minutes today.",
    "{friend} told me they're moving to {city} in {month}.",
    "I feel {feeling} about the {topic} exam on {weekday}.",
    "Can you recommend something to cook with {food}?",
    "I bought a new {object} at {place} today.",
    "My sister called from {city}; she started {activity}.",
    "I woke up at {hour} and went jogging along {place}.",
    "The train was {minutes} minutes late because of the {weather}.",
    "I'm thinking of learning {topic} this {season}.",
    "{pet} slept on my {object} all afternoon.",
    "We celebrated {friend}'s birthday with {food} at {place}.",
]
USER_LINES_JA = [
    "今日は{friend_ja}と{place_ja}に行ったよ。",
    "最近{topic_ja}の本を読んでるんだ。{feeling_ja}。",
    "{topic_ja}のこと、前に話したっけ？",
    "仕事が忙しくて、{hour}から{topic_ja}の会議があった。",
    "猫の{pet}がまた{object_ja}を倒したの。",
    "夕飯は{food_ja}にした。{price}円だった。",
    "{friend_ja}と来週の{weekday_ja}に{activity_ja}をやってみる予定。",
    "{place_ja}の近くで{object_ja}をなくしちゃった。",
    "一日中{weather_ja}だったから、家で{topic_ja}の映画を見てた。",
    "{activity_ja}の練習、今日は{minutes}分やったよ。",
    "{friend_ja}が{month_ja}に{city_ja}へ引っ越すんだって。",
    "{weekday_ja}の{topic_ja}の試験、{feeling_ja}。",
    "{food_ja}を使った料理、何かおすすめある？",
    "{place_ja}で新しい{object_ja}を買った。",
    "{city_ja}にいる姉から電話があって、{activity_ja}を始めたって。",
    "{hour}に起きて{place_ja}のあたりを走ってきた。",
    "{weather_ja}のせいで電車が{minutes}分遅れた。",
    "この{season_ja}は{topic_ja}を勉強してみようかな。",
    "{pet}が午後ずっと{object_ja}の上で寝てた。",
    "{friend_ja}の誕生日を{place_ja}で{food_ja}を食べてお祝いした。",
]
AGENT_LINES = [
    "That sounds lovely. How was {place}?",
    "Tell me more about {topic}. What got you into it?",
    "{pet} again? Is everything all right?",
    "I'm glad you told me. I'll remember that {friend} is moving to {city}.",
    "{food} sounds delicious. Did you make it yourself?",
    "Good luck with {activity} on {weekday}!",
    "I hope you find your {object}. Did you check {place}?",
    "{minutes} minutes is a good effort. Keep it up.",
    "Learning {topic} in {season} sounds like a nice plan.",
    "Happy birthday to {friend}! {place} is a good choice.",
]
AGENT_LINES_JA = [
    "{place_ja}、楽しそう！どうだった？",
    "{topic_ja}の話、もっと聞かせて。きっかけは何だったの？",
    "また{pet}が？大丈夫だった？",
    "教えてくれてありがとう。{friend_ja}が{city_ja}に行くこと、覚えておくね。",
    "{food_ja}、おいしそう！自分で作ったの？",
    "{weekday_ja}の{activity_ja}、うまくいくといいね。",
    "{object_ja}、見つかるといいね。{place_ja}は探してみた？",
    "{minutes}分も続けたなんてすごいね。",
    "{season_ja}に{topic_ja}を始めるの、いい計画だと思う。",
    "{friend_ja}、お誕生日おめでとう！{place_ja}はいい選択だね。",
]
FILL = {
    "place": ["the park", "the library", "the museum", "the beach", "the station cafe", "the river path",
              "the bookshop", "the old castle", "the farmers market", "the gym", "the harbour", "the zoo",
              "the botanical garden", "the night market", "the ski slope", "the cinema", "the bakery",
              "the climbing wall", "the flea market", "the concert hall"],
    "place_ja": ["公園", "図書館", "美術館", "海辺", "駅前のカフェ", "川沿いの道", "本屋", "お城", "朝市",
                 "ジム", "港", "動物園", "植物園", "夜市", "スキー場", "映画館", "パン屋", "商店街",
                 "温泉", "神社"],
    "friend": ["Ken", "Yui", "Sam", "Maria", "Tom", "Aiko", "Leo", "Nina", "Raj", "Emma", "Hugo", "Sara",
               "Diego", "Lena", "Omar", "Kate"],
    "friend_ja": ["田中さん", "佐藤さん", "鈴木さん", "高橋くん", "伊藤さん", "渡辺さん", "山本さん",
                  "中村さん", "小林くん", "加藤さん", "吉田さん", "山田さん", "ゆいちゃん", "けんちゃん"],
    "topic": ["astronomy", "gardening", "jazz", "programming", "photography", "chess", "history",
              "economics", "origami", "marine biology", "philosophy", "calligraphy", "poetry",
              "robotics", "birdwatching", "pottery", "architecture", "statistics", "geology",
              "beekeeping", "sign language", "film editing", "woodworking", "nutrition"],
    "topic_ja": ["天文学", "園芸", "ジャズ", "プログラミング", "写真", "将棋", "歴史", "経済", "折り紙",
                 "海洋生物", "哲学", "書道", "俳句", "ロボット", "野鳥観察", "陶芸", "建築", "統計",
                 "地質学", "養蜂", "手話", "動画編集", "木工", "栄養学"],
    "food": ["ramen", "curry", "sushi", "pasta", "tacos", "dumplings", "pancakes", "paella", "pho",
             "lasagna", "bibimbap", "falafel", "risotto", "omelette", "soba", "pizza"],
    "food_ja": ["ラーメン", "カレー", "寿司", "パスタ", "餃子", "お好み焼き", "親子丼", "天ぷら", "うどん",
                "焼き魚", "肉じゃが", "ハンバーグ", "オムライス", "そば", "すき焼き", "たこ焼き"],
    "activity": ["yoga", "swimming", "tennis", "the guitar", "the piano", "rock climbing", "running",
                 "baking", "knitting", "salsa", "kayaking", "archery", "drawing", "karate"],
    "activity_ja": ["ヨガ", "水泳", "テニス", "ギター", "ピアノ", "ボルダリング", "ランニング",
                    "お菓子作り", "編み物", "ダンス", "カヤック", "弓道", "スケッチ", "空手"],
    "object": ["umbrella", "keys", "phone charger", "notebook", "scarf", "water bottle", "headphones",
               "wallet", "sunglasses", "laptop bag", "glasses", "library card"],
    "object_ja": ["傘", "鍵", "充電器", "ノート", "マフラー", "水筒", "イヤホン", "財布", "サングラス",
                  "カバン", "眼鏡", "マグカップ"],
    "city": ["Osaka", "Berlin", "Toronto", "Lisbon", "Seoul", "Melbourne", "Austin", "Edinburgh",
             "Sapporo", "Vancouver"],
    "city_ja": ["大阪", "札幌", "福岡", "京都", "仙台", "名古屋", "神戸", "金沢", "那覇", "広島"],
    "pet": ["Tama", "タマ", "Mochi"],
    "feeling": ["exciting", "a bit hard", "relaxing", "confusing", "fun", "nerve-racking", "slow"],
    "feeling_ja": ["面白い", "ちょっと難しい", "癒やされる", "よくわからない", "楽しい", "緊張する"],
    "weekday": ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"],
    "weekday_ja": ["月曜", "火曜", "水曜", "木曜", "金曜", "土曜", "日曜"],
    "month": ["January", "March", "April", "June", "August", "October", "December"],
    "month_ja": ["一月", "三月", "四月", "六月", "八月", "十月", "十二月"],
    "season": ["spring", "summer", "autumn", "winter"],
    "season_ja": ["春", "夏", "秋", "冬"],
    "weather": ["snow", "storm", "heavy rain", "fog"],
    "weather_ja": ["雪", "嵐", "大雨", "霧"],
}


# Questions about the history, bilingual like it, for timing retrieval: each draws its words from
# the same lists, so over a hundred questions most words are new to the searcher.
QUESTIONS = [
    "What did I say about {topic}?",
    "Do you remember when I went to {place} with {friend}?",
    "How is {pet} doing?",
    "When did I last have {food}?",
    "Did I ever find my {object}?",
    "Where is {friend} moving to?",
    "How did my {activity} practice go?",
    "What happened on {weekday} in {city}?",
]
QUESTIONS_JA = [
    "{topic_ja}の話、覚えてる？",
    "{friend_ja}とどこに行ったっけ？",
    "{place_ja}で何を買ったんだっけ？",
    "{city_ja}に引っ越すのは誰だった？",
    "{food_ja}を食べたのはいつ？",
    "{activity_ja}の練習、どうだった？",
    "{object_ja}はどこでなくしたんだっけ？",
]


def questions(count: int, seed: int = 11) -> list[str]:
    """`count` seeded questions, alternately English and Japanese."""
    rng = random.Random(seed)
    return [_line(rng, QUESTIONS_JA if n % 2 else QUESTIONS) for n in range(count)]


def user_lines(rng: random.Random, count: int, japanese: bool = False) -> list[str]:
    """`count` of the user's lines as the history has them, for memories written from them (episodes, pages)."""
    return [_line(rng, USER_LINES_JA if japanese else USER_LINES) for _ in range(count)]


def _line(rng: random.Random, templates: list[str]) -> str:
    values = {k: rng.choice(v) for k, v in FILL.items()}
    values.update(hour=f"{rng.randint(5, 23)}:{rng.choice(['00', '15', '30', '45'])}",
                  minutes=rng.randint(3, 95), price=rng.randint(4, 60) * (1 if rng.random() < 0.5 else 100))
    return rng.choice(templates).format(**values)


def seed_history(logs_dir: Path, messages: int, seed: int = 7, user: str = "User", persona: str = "Ark",
                 end: datetime | None = None, per_day: int = 20) -> int:
    """Write `messages` alternating USER/AGENT entries, `per_day` a day, ending near `end`.
    Half the days are in Japanese, half in English."""
    rng = random.Random(seed)
    end = end or datetime(2026, 11, 1, tzinfo=timezone.utc)
    days = max(1, messages // per_day)
    start = end - timedelta(days=days)
    # Written month by month in one go (the app appends one fsync'd entry at a time; for a
    # 100k-message history that would only measure the disk), in exactly the app's format.
    by_month: dict[str, list[str]] = {}
    for i in range(messages):
        day, slot = divmod(i, per_day)
        when = start + timedelta(days=day, hours=19, minutes=slot * 2)
        japanese = day % 2 == 0
        if i % 2 == 0:
            role, name, lines = "USER", user, USER_LINES_JA if japanese else USER_LINES
        else:
            role, name, lines = "AGENT", persona, AGENT_LINES_JA if japanese else AGENT_LINES
        entry = LogEntry(role, name, _line(rng, lines), f"{when:%Y%m%dT%H%M%S}-{i:06x}", when)
        by_month.setdefault(f"{when:%Y-%m}", []).append(format_entry(entry))
    logs_dir.mkdir(parents=True, exist_ok=True)
    for month, chunks in by_month.items():
        append_durably(logs_dir / f"{month}.txt", "".join(chunks))
    return messages
