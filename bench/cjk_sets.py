"""Build the CJK recall sets: `python -m bench.cjk_sets` writes bench/recall_sets/cjk_recall_{ja,zh}.json.

Each language has several companion-chat histories (one user, one persona, sessions a few days
apart). A history holds facts the user told (a pet's name, a gift, a trip, an appointment with a
date, family news, a colleague, ...), small talk, and topic-near distractors (the same animal, the
same colleague or place in another context). Every fact is asked about later in a paraphrase that
names what a user would remember (the sister, the cat, Kyoto) but not the answer, and not the
message's wording. Templates with varied vocabulary give a few hundred questions; the draw is
seeded, so the files are reproducible. The bench (bench/cjk_recall.py) reads only the JSON.
"""
from __future__ import annotations

import json
import logging
import random
from dataclasses import dataclass, field
from datetime import datetime, timedelta, timezone
from pathlib import Path

log = logging.getLogger(__name__)

DATA_DIR = Path(__file__).parent / "recall_sets"
HISTORIES = 13
SEED = 2026


@dataclass(frozen=True)
class Kind:
    name: str
    slots: dict  # slot -> tuple of values (a value may be a tuple: {slot[0]} in a template)
    says: tuple[str, ...]  # what the user says (evidence)
    asks: tuple[str, ...]  # the later question
    noise: tuple[str, ...] = ()  # topic-near messages that do not answer it
    key: tuple[str, ...] = ()  # slots a question names: instances in one history differ in them
    most: int = 1  # instances per history at most


# --- Japanese ---------------------------------------------------------------------------------
JA_KINDS = (
    Kind("pet", {
        "owner": (("うち", "うち"), ("実家", "実家"), ("姉", "姉のところ"), ("友達の田中さん", "田中さんのところ"),
                  ("隣の家", "お隣さん")),
        "animal": ("猫", "犬", "ハムスター", "インコ", "ウサギ"),
        "name": ("タマ", "コタロウ", "モモ", "ソラ", "きなこ", "マロン", "ココ", "チャコ", "レオ", "ムギ"),
    }, ("{owner[0]}の{animal}、{name}っていうんだ。すごく人懐っこいの",
        "{owner[1]}で{animal}を飼ってて、名前は{name}だよ",
        "{owner[0]}の{animal}の{name}が最近ちょっと太ってきたみたい"),
        ("{owner[0]}の{animal}ってなんて名前だったっけ？",
         "{owner[1]}で飼ってる{animal}、呼び名を覚えてる？",
         "前に話した{owner[0]}の{animal}の名前、もう一回教えて"),
        ("{animal}の動画を見てたら夜更かししちゃった", "駅前に{animal}カフェができたらしい",
         "{animal}を飼うのって大変そうだよね"), key=("owner",), most=2),
    Kind("gift", {
        "giver": ("田中さん", "母", "同僚の佐藤さん", "彼氏", "祖母", "幼なじみのユキ"),
        "gift": ("マフラー", "腕時計", "手帳", "香水", "ワイン", "ワイヤレスイヤホン", "マグカップ", "観葉植物"),
        "occasion": ("誕生日", "クリスマス", "就職祝い"),
    }, ("{giver}から{occasion}に{gift}をもらったよ",
        "{occasion}のプレゼントに{giver}が{gift}をくれたんだ。大事に使う",
        "{giver}が選んでくれた{gift}、{occasion}の贈り物なんだけどセンスよくてびっくり"),
        ("{giver}に何を贈ってもらったんだっけ？", "{giver}からのプレゼントって結局何だった？",
         "{giver}にもらった品物、何か覚えてる？"),
        ("{giver}へのお返し、何にしようかな", "{giver}と久しぶりに電話した"), key=("giver",), most=2),
    Kind("trip", {
        "trip": (("京都", "湯豆腐"), ("沖縄", "ソーキそば"), ("札幌", "スープカレー"), ("金沢", "のどぐろ"),
                 ("福岡", "もつ鍋"), ("台湾", "小籠包"), ("広島", "お好み焼き"), ("仙台", "牛タン")),
        "when": ("先月", "去年の夏", "連休", "この前の週末"),
    }, ("{when}、{trip[0]}に行ってきた。{trip[1]}が本当においしかった",
        "{trip[0]}で食べた{trip[1]}の味がまだ忘れられない",
        "{when}の{trip[0]}旅行、{trip[1]}目当てだったけど大正解だった"),
        ("{trip[0]}に遊びに行ったとき、感動した料理は何だった？", "{trip[0]}で気に入ったグルメ、何だったっけ？",
         "{trip[0]}の旅で一番の食べ物って何だった？"),
        ("いつか{trip[0]}にも行ってみたいな", "テレビで{trip[0]}の特集をやってた"), key=("trip",), most=2),
    Kind("appointment", {
        "appt": (("歯医者", "歯の治療"), ("美容院", "ヘアカット"), ("健康診断", "体の検査"), ("車の点検", "車のメンテナンス"),
                 ("面接", "転職の面談"), ("内見", "新しい部屋を見に行くの")),
        "date": ("3月14日", "来週の水曜", "12月2日", "今度の土曜", "25日", "月末"),
    }, ("{date}に{appt[0]}の予約を入れたよ", "{appt[0]}、{date}の夕方に決まった",
        "そういえば{date}は{appt[0]}だから早めに帰る"),
        ("{appt[1]}っていつだったっけ？", "{appt[1]}の日にち、覚えてる？", "{appt[1]}はいつって言ってた？"),
        ("{appt[0]}って行くの面倒なんだよね", "前の{appt[0]}がいつだったか忘れちゃった"), key=("appt",), most=2),
    Kind("dislike", {"food": ("パクチー", "セロリ", "納豆", "なす", "しいたけ", "レバー", "ゴーヤ", "梅干し")},
         ("実は{food}がどうしても食べられないんだ", "{food}だけは子どもの頃からずっと苦手",
          "給食で{food}が出るたびに泣いてたくらい嫌いなんだよね"),
         ("私の嫌いな食べ物、覚えてる？", "どうしても無理って言ってた食材は何？",
          "料理を作ってもらうとき、避けてほしいものって何だっけ？"),
         ("{food}って体にいいらしいね", "スーパーで{food}が安売りしてた")),
    Kind("hobby", {"hobby": ("ギター", "陶芸", "ボルダリング", "水彩画", "将棋", "ピアノ", "生け花", "フラダンス"),
                   "freq": ("毎晩三十分", "週に二回", "土日に", "仕事帰りに")},
         ("最近{hobby}を始めたんだ。{freq}練習してる", "{freq}{hobby}の教室に通い始めたよ",
          "{hobby}にはまってて、{freq}やってるんだ"),
         ("私が新しく習い始めたことって何だっけ？", "最近夢中になってる趣味、覚えてる？", "近頃続けてる習い事は何だった？"),
         ("{hobby}って難しそうだよね", "テレビで{hobby}のプロを見てすごいと思った")),
    Kind("family", {"rel": ("妹", "弟", "兄", "いとこ", "姉"),
                    "event": ("カナダに留学する", "京都の大学に合格した", "来月結婚する", "転職して銀行で働き始めた",
                              "出産した", "家を買った", "骨折して入院した")},
         ("{rel}が{event}んだって", "聞いて、{rel}が{event}の！", "うちの{rel}、{event}らしい"),
         ("{rel}に何があったって話したっけ？", "{rel}の近況、前に話したの覚えてる？", "{rel}の最近のニュースって何だった？"),
         ("{rel}とは最近あまり連絡を取ってない", "{rel}と一緒に買い物に行った"), key=("rel",), most=2),
    Kind("coworker", {"name": ("田中", "佐藤", "鈴木", "高橋", "山本", "中村"),
                      "fact": ("来月で会社を辞める", "北海道の出身", "課長に昇進した", "双子のお父さん",
                               "フルマラソンを三時間で走った", "社内の料理大会で優勝した")},
         ("同僚の{name}さん、{fact}らしい", "{name}さんが{fact}って聞いてびっくりした",
          "今日知ったんだけど、{name}さんは{fact}みたい"),
         ("{name}さんについて何て言ってたっけ？", "会社の{name}さんってどんな話だった？", "{name}さんのこと、前に何か教えたよね？"),
         ("今日は{name}さんとランチに行った", "{name}さんに資料のチェックを頼まれた"), key=("name",), most=2),
    Kind("move", {"city": ("大阪", "横浜", "神戸", "名古屋", "仙台", "福岡")},
         ("来月{city}に引っ越すことになったんだ", "{city}への転勤が決まって、春から向こうに住む"),
         ("私がどこへ移り住むって言ってたっけ？", "今度の新しい住まいはどの街？", "転居先ってどこだった？"),
         ("{city}って住みやすいのかな", "{city}の友達から連絡があった")),
    Kind("purchase", {"item": ("食洗機", "ロボット掃除機", "電動自転車", "一眼レフ", "マッサージチェア", "ノートパソコン")},
         ("ボーナスで{item}を買っちゃった", "思い切って{item}を購入したら生活が変わった"),
         ("臨時収入で何を手に入れたんだっけ？", "最近の大きな買い物って何だった？", "奮発して買ったもの、覚えてる？"),
         ("{item}ってどれがいいのか迷う", "友達が{item}を勧めてきた")),
    Kind("work", {"proj": ("新商品のパッケージ", "社内システムの入れ替え", "海外支社とのやりとり", "新人研修", "展示会の準備",
                           "ウェブサイトのリニューアル")},
         ("仕事で{proj}を任されることになった", "今月から{proj}の担当になったよ。責任重大"),
         ("職場で割り振られた役目って何だった？", "会社で新しく受け持った仕事は何？", "今の業務、何をやってるんだっけ？"),
         ("会議が長引いて疲れた", "隣の部署は{proj}で忙しそう")),
    Kind("media", {"media": (("映画", "作品", "『ローマの休日』"), ("映画", "作品", "『ショーシャンクの空に』"),
                             ("小説", "本", "『コンビニ人間』"), ("小説", "本", "『博士の愛した数式』"),
                             ("ドラマ", "連ドラ", "『逃げるは恥だが役に立つ』"), ("アニメ", "アニメ作品", "『葬送のフリーレン』"))},
         ("{media[2]}っていう{media[0]}にどはまりしてる", "最近は{media[2]}ばっかり。この{media[0]}、本当におすすめ"),
         ("最近はまってる{media[1]}のタイトルは？", "私が勧めた{media[1]}って何だったっけ？"),
         ("{media[0]}を見る時間がなかなかない", "おすすめの{media[0]}ある？"), key=("media",), most=2),
    Kind("restaurant", {"area": ("駅前", "会社の近く", "実家の近所", "商店街"),
                        "shop": ("カレー屋", "ラーメン屋", "パン屋", "焼き鳥屋", "タイ料理の店", "蕎麦屋")},
         ("{area}においしい{shop}を見つけた", "{area}に新しくできた{shop}、行ってみたら大当たりだった"),
         ("{area}で見つけたお店って何の店？", "{area}のお気に入りのお店、何料理だったっけ？"),
         ("{area}は人が多くて疲れる", "{area}の本屋が閉店しちゃった"), key=("area",), most=2),
    Kind("friend", {"friend": ("ミカ", "ケンタ", "アヤ", "リョウ", "サキ"),
                    "abroad": (("パリ", "パティシエ"), ("シドニー", "看護師"), ("ベルリン", "エンジニア"),
                               ("ニューヨーク", "カメラマン"), ("バンコク", "日本語の先生"))},
         ("友達の{friend}が{abroad[0]}で{abroad[1]}をしてるんだ", "{friend}、今は{abroad[0]}に住んでて{abroad[1]}として働いてるらしい"),
         ("{friend}は海外でどんな仕事をしてるの？", "外国にいる{friend}の職業、何だったっけ？", "{friend}ってどこで何してるんだっけ？"),
         ("{friend}から久しぶりにメッセージが来た", "{friend}の誕生日がもうすぐだ"), key=("friend",), most=2),
    Kind("dream", {"dream": ("パン屋を開く", "小説家になる", "世界一周をする", "自分のカフェを持つ", "田舎で畑を耕す")},
         ("いつか{dream}のが夢なんだ", "将来は{dream}って決めてる"),
         ("私の将来の目標って何だった？", "いつかやりたいって話したこと、覚えてる？")),
)

# Hand-written (message, question) pairs (the first ja-probe's, less those a template covers).
JA_PAIRS = (
    ("姉の結婚式でスピーチを頼まれて緊張してる", "誰の式で挨拶をするんだっけ？"),
    ("健康診断でコレステロールが高いって言われた", "検査で何の数値を注意されたんだっけ？"),
    ("週末に高尾山に登ってきた。紅葉がきれいだった", "この前どの山に行ったか覚えてる？"),
    ("新しい職場は渋谷にあって、通勤が一時間かかる", "今の会社ってどこにあるんだっけ？"),
    ("甥っ子が小学校に入学したよ。ランドセルが大きかった", "入学したのは誰だった？"),
    ("ダイエットのために朝はオートミールにしてる", "朝ごはんに何を食べてるって言った？"),
    ("スマホの画面を割っちゃって修理に一万円かかった", "何を壊して直してもらったんだっけ？"),
    ("花粉症がひどくて毎日薬を飲んでる", "私のアレルギーの話、覚えてる？"),
    ("祖母が入院したので週末はお見舞いに行く", "週末は誰に会いに病院へ行くって言った？"),
    ("会社の同期の佐藤くんが来週結婚するんだって", "佐藤くんに何のお祝いがあるって言ってたっけ？"),
    ("昨日から左の奥歯が痛くて、歯医者を予約した", "どこが痛むって話したっけ？"),
    ("ベランダでミニトマトを育て始めたよ", "家で何の野菜を栽培してるんだっけ？"),
    ("去年の夏に北海道で食べたウニ丼が忘れられない", "旅行先で感動した料理は何だった？"),
    ("車の免許、三回目でやっと合格した", "何の試験に受かったんだっけ？"),
    ("父の還暦祝いに家族で温泉旅行を計画してる", "お父さんの何のお祝いを考えてるんだっけ？"),
    ("英語の勉強にポッドキャストを毎朝聞いてる", "語学の勉強はどうやってるって言った？"),
    ("来年の春にフルマラソンに挑戦するつもり", "どんな大会に出ようとしてるんだっけ？"),
    ("コーヒーをやめて、最近は麦茶ばかり飲んでる", "最近よく飲んでるものは何？"),
    ("上司と意見が合わなくて、部署異動を希望した", "仕事で何を申し出たって言ってた？"),
    ("夜なかなか寝付けなくて、寝る前のスマホをやめてみた", "眠れない対策に何をやめたんだっけ？"),
    ("友達の結婚式の二次会で幹事をやることになった", "パーティーで何の係を任されたんだっけ？"),
    ("引っ越し先のアパートは駅から徒歩五分なんだ", "新しい部屋から駅までどのくらい？"),
    ("ピアノの発表会でショパンのノクターンを弾く予定", "発表会で演奏する曲は何？"),
    ("母がスマホに替えたので使い方を教えてる", "お母さんに何を教えてあげてるんだっけ？"),
    ("腰を痛めて、整体に通い始めた", "体のどこを悪くしたって言ってた？"),
    ("子どもの頃はサッカー選手になりたかった", "小さい頃の夢って何だった？"),
    ("梅雨の時期は洗濯物が乾かなくて困る", "雨の季節に何が困るって話したっけ？"),
    ("会社の健康保険の手続きを忘れてて焦った", "何の手続きをし忘れたんだっけ？"),
    ("目が疲れやすくなって、眼鏡を新調した", "視力のことで何を買い替えたって言った？"),
    ("祖父の畑を手伝って、じゃがいもを収穫した", "おじいちゃんのところで何を掘ったんだっけ？"),
    ("初めて献血に行ってきた。思ったより痛くなかった", "初めて血を提供しに行った話、覚えてる？"),
    ("姪っ子にぬいぐるみをあげたらすごく喜んでくれた", "姪に何をプレゼントしたんだっけ？"),
    ("最近、夜にヨガを始めて体が柔らかくなってきた", "寝る前にしてる運動は何？"),
    ("自転車で転んで膝をすりむいた", "ケガをしたのはどこだっけ？"),
    ("来週、高校の同窓会があるんだ。十年ぶり", "久しぶりに集まる会って何だった？"),
    ("冷蔵庫が壊れて、中の物が全部だめになった", "家電が故障した話、何が壊れたんだっけ？"),
    ("夏休みに姪と水族館でイルカショーを見た", "姪っ子とどこへ出かけたんだっけ？"),
    ("会社の忘年会でビンゴの景品にお米が当たった", "忘年会で何をもらったんだっけ？"),
    ("毎朝駅まで歩くようにしたら体重が二キロ減った", "どうやって痩せたって言ってた？"),
)
JA_FILLER = (
    "今日はいい天気だね", "そうだね、散歩日和だ", "お昼はラーメンにした", "ちょっと眠いなあ", "映画を見に行きたいな",
    "仕事が終わったよ", "今日はさすがに疲れた", "雨が降ってきた", "明日は早起きしないと", "週末どうしようかな",
    "最近寒くなってきたね", "コンビニで新作のスイーツを買った", "電車が遅れてた", "洗濯物を干すの忘れてた",
    "今日は家でのんびりするよ", "夕飯なに作ろうかな", "肩こりがひどい", "久しぶりに部屋の掃除をした",
    "ただいま", "おはよう、今日もがんばろう", "夜ふかししちゃった", "お風呂入ってくるね", "そろそろ寝るね",
    "今日の空、すごくきれいだった", "新しい靴を履いて出かけた",
)
JA_REPLIES = (
    "そうなんだ！教えてくれてありがとう。", "へえ、いいね。", "それは大変だったね。", "覚えておくね。",
    "楽しそう！また聞かせて。", "なるほどね。", "うんうん、それで？", "無理しないでね。", "よかったね！",
)

# --- Chinese ----------------------------------------------------------------------------------
ZH_KINDS = (
    Kind("pet", {
        "owner": (("我家", "我家"), ("老家", "老家"), ("我姐", "我姐"), ("朋友小王", "小王家"), ("邻居", "邻居家")),
        "animal": ("猫", "狗", "仓鼠", "鹦鹉", "兔子"),
        "name": ("咪咪", "豆豆", "球球", "小白", "年糕", "可乐", "旺财", "雪球", "花卷", "馒头"),
    }, ("{owner[0]}的{animal}叫{name}，特别黏人", "{owner[1]}养了一只{animal}，名字叫{name}",
        "{owner[0]}那只{animal}{name}最近胖了好多"),
        ("{owner[1]}养的{animal}叫什么来着？", "还记得{owner[0]}那只{animal}的名字吗？",
         "之前提过的{owner[0]}的{animal}，名字是啥？"),
        ("刷{animal}的视频刷到半夜", "楼下新开了一家{animal}咖啡馆", "养{animal}好像挺辛苦的"), key=("owner",), most=2),
    Kind("gift", {
        "giver": ("王磊", "我妈", "同事小李", "男朋友", "奶奶", "发小阿杰"),
        "gift": ("围巾", "手表", "笔记本", "香水", "红酒", "蓝牙耳机", "马克杯", "绿植"),
        "occasion": ("生日", "圣诞节", "毕业"),
    }, ("{occasion}的时候{giver}送了我{gift}", "{giver}给的{occasion}礼物是{gift}，我超喜欢",
        "收到{giver}的{gift}啦，说是{occasion}礼物"),
        ("{giver}给过我什么礼物来着？", "还记得{giver}送我的是什么吗？", "{giver}之前给我准备的东西是什么？"),
        ("该给{giver}回什么礼呢", "好久没跟{giver}打电话了"), key=("giver",), most=2),
    Kind("trip", {
        "trip": (("成都", "火锅"), ("西安", "肉夹馍"), ("厦门", "沙茶面"), ("大理", "乳扇"), ("杭州", "西湖醋鱼"),
                 ("长沙", "臭豆腐"), ("青岛", "海鲜烧烤"), ("广州", "早茶")),
        "when": ("上个月", "去年夏天", "国庆", "上周末"),
    }, ("{when}去了一趟{trip[0]}，{trip[1]}真的太好吃了", "在{trip[0]}吃的{trip[1]}到现在都忘不了",
        "{when}的{trip[0]}之旅就是冲着{trip[1]}去的，果然没失望"),
        ("我去{trip[0]}玩的时候，最惊艳的美食是什么？", "在{trip[0]}最喜欢吃的是哪个来着？",
         "{trip[0]}那趟旅行印象最深的吃的是啥？"),
        ("以后也想去{trip[0]}看看", "电视上在介绍{trip[0]}的风景"), key=("trip",), most=2),
    Kind("appointment", {
        "appt": (("牙医", "看牙"), ("理发", "剪头发"), ("体检", "做身体检查"), ("车的保养", "车子维护"),
                 ("面试", "应聘面谈"), ("看房", "去看新房子")),
        "date": ("3月14号", "下周三", "12月2号", "这周六", "25号", "月底"),
    }, ("我约了{date}去{appt[0]}", "{appt[0]}定在{date}下午了", "对了，{date}要去{appt[0]}，得早点下班"),
        ("{appt[1]}是哪天来着？", "我什么时候要{appt[1]}？", "还记得{appt[1]}定在哪天吗？"),
        ("每次去{appt[0]}都好麻烦", "上次{appt[0]}是什么时候，我都忘了"), key=("appt",), most=2),
    Kind("dislike", {"food": ("香菜", "芹菜", "榴莲", "苦瓜", "臭豆腐", "肥肉", "胡萝卜", "茄子")},
         ("其实我一口{food}都吃不了", "我从小就特别讨厌{food}", "每次看到{food}我都躲得远远的"),
         ("我不爱吃的东西是什么来着？", "还记得我最受不了哪种食物吗？", "给我做饭的时候要避开什么？"),
         ("听说{food}对身体挺好的", "超市里{food}在打折")),
    Kind("hobby", {"hobby": ("吉他", "陶艺", "攀岩", "水彩画", "围棋", "钢琴", "书法", "游泳"),
                   "freq": ("每天晚上半小时", "一周两次", "周末", "下班后")},
         ("最近开始学{hobby}了，{freq}都会练一练", "{freq}去上{hobby}课，越来越有意思", "迷上了{hobby}，{freq}都在练"),
         ("我最近新学的是什么来着？", "还记得我最近着迷的爱好吗？", "我现在坚持在学的东西是什么？"),
         ("{hobby}看起来好难啊", "电视上看到{hobby}高手，太厉害了")),
    Kind("family", {"rel": ("妹妹", "弟弟", "哥哥", "表姐", "姐姐"),
                    "event": ("要去加拿大留学", "考上了南京的大学", "下个月要结婚", "跳槽去银行上班", "生了个宝宝",
                              "买了房子", "骨折住院")},
         ("跟你说，我{rel}{event}！", "听说我{rel}{event}，全家都在聊这件事", "告诉你个消息：我{rel}{event}"),
         ("我{rel}最近怎么了来着？", "还记得我{rel}的近况吗？", "之前说过我{rel}发生了什么事？"),
         ("最近跟{rel}联系少了", "和{rel}一起去逛街了"), key=("rel",), most=2),
    Kind("coworker", {"name": ("老王", "小李", "张姐", "陈经理", "刘洋", "赵磊"),
                      "fact": ("下个月要辞职", "是东北人", "升职当了主管", "家里有一对双胞胎", "跑全马跑进了三小时",
                               "在公司厨艺大赛拿了第一")},
         ("我同事{name}{fact}", "听说公司的{name}{fact}，真没想到", "今天才知道{name}{fact}"),
         ("关于{name}我跟你说过什么？", "还记得同事{name}的事吗？", "{name}是个什么样的人来着？"),
         ("今天和{name}一起吃了午饭", "{name}让我帮忙改个文件"), key=("name",), most=2),
    Kind("move", {"city": ("上海", "深圳", "南京", "武汉", "苏州", "天津")},
         ("下个月我要搬到{city}去了", "公司把我调到{city}，春天就过去住"),
         ("我说过要搬去哪个城市来着？", "我的新住处在哪儿？", "我要迁居到哪里？"),
         ("不知道{city}住着方便不", "{city}的朋友来找我了")),
    Kind("purchase", {"item": ("洗碗机", "扫地机器人", "电动自行车", "单反相机", "按摩椅", "笔记本电脑")},
         ("年终奖下来就买了台{item}", "咬咬牙入手了{item}，生活质量提高了"),
         ("我拿到奖金后买了什么？", "最近一次大件消费是什么来着？", "我狠心买下的东西是什么？"),
         ("{item}不知道选哪个牌子好", "朋友一直安利{item}")),
    Kind("work", {"proj": ("新产品的包装设计", "公司系统的更换", "跟海外分公司的对接", "新员工培训", "展会的筹备", "官网改版")},
         ("工作上我被安排负责{proj}", "这个月起{proj}归我管了，压力好大"),
         ("公司给我分配的任务是什么？", "我现在在单位负责什么来着？", "工作上新接手的活儿是什么？"),
         ("开会开到好晚，累死了", "隔壁部门在忙{proj}")),
    Kind("media", {"media": (("电影", "片子", "《霸王别姬》"), ("电影", "片子", "《流浪地球》"), ("小说", "书", "《活着》"),
                             ("小说", "书", "《围城》"), ("电视剧", "剧", "《繁花》"), ("动画", "动漫", "《罗小黑战记》"))},
         ("最近迷上了{media[0]}{media[2]}", "{media[2]}真的强推，最近最喜欢的{media[0]}"),
         ("我最近喜欢的{media[1]}叫什么？", "我推荐过的{media[1]}是哪个来着？"),
         ("最近都没时间看{media[0]}", "有什么好看的{media[0]}推荐吗？"), key=("media",), most=2),
    Kind("restaurant", {"area": ("地铁站旁边", "公司附近", "老家附近", "步行街"),
                        "shop": ("兰州拉面馆", "面包店", "烧烤店", "泰国菜馆", "饺子馆", "咖喱店")},
         ("在{area}发现了一家很好吃的{shop}", "{area}新开了一家{shop}，去试了一下特别棒"),
         ("我在{area}找到的是什么店？", "{area}那家好吃的店是卖什么的？"),
         ("{area}人太多了", "{area}的书店关门了"), key=("area",), most=2),
    Kind("friend", {"friend": ("小雨", "阿杰", "琳琳", "大伟", "思思"),
                    "abroad": (("巴黎", "甜点师"), ("悉尼", "护士"), ("柏林", "工程师"), ("纽约", "摄影师"), ("曼谷", "中文老师"))},
         ("我朋友{friend}在{abroad[0]}当{abroad[1]}", "{friend}现在住在{abroad[0]}，做{abroad[1]}的工作"),
         ("{friend}在国外做什么工作来着？", "在海外的{friend}是干什么的？", "{friend}现在在哪儿、做什么？"),
         ("{friend}好久没联系我了", "{friend}的生日快到了"), key=("friend",), most=2),
    Kind("dream", {"dream": ("开一家面包店", "当小说家", "环游世界", "开自己的咖啡馆", "回乡下种地")},
         ("总有一天我要{dream}，这是我的梦想", "以后我打算{dream}"),
         ("我的人生目标是什么来着？", "我说过以后想做的事是什么？")),
)
ZH_PAIRS = (
    ("前几天体检说我血脂有点高", "检查的时候哪项指标有问题？"),
    ("昨天开始左边的智齿疼得厉害", "我哪里疼来着？"),
    ("阳台上种了几盆小番茄", "我在家里种的是什么蔬菜？"),
    ("驾照考了三次终于过了", "我考过了什么证？"),
    ("我爸六十大寿，打算全家去泡温泉", "我们要给爸爸庆祝什么？"),
    ("每天早上听英语播客练听力", "我是怎么学外语的？"),
    ("明年春天想挑战一次全程马拉松", "我打算参加什么比赛？"),
    ("最近戒了咖啡，天天喝大麦茶", "我最近常喝的饮料是什么？"),
    ("跟领导合不来，申请了调岗", "我在工作上提出了什么申请？"),
    ("晚上睡不着，试着睡前不玩手机", "为了睡好觉我戒掉了什么习惯？"),
    ("朋友婚礼的后续聚会让我当组织者", "派对上我负责什么？"),
    ("新租的房子离地铁站走路五分钟", "新家到车站有多远？"),
    ("钢琴演奏会上我要弹肖邦的夜曲", "演出时我准备弹哪首曲子？"),
    ("我妈换了智能手机，我在教她怎么用", "我在教妈妈什么？"),
    ("腰扭伤了，开始去做推拿", "我身体哪个部位受伤了？"),
    ("小时候的梦想是当足球运动员", "我小时候想做什么？"),
    ("梅雨季节衣服总是晾不干", "下雨的季节我为什么发愁？"),
    ("忘了办公司的医保手续，急死我了", "我漏掉了什么手续？"),
    ("眼睛容易累，重新配了一副眼镜", "因为视力问题我换了什么？"),
    ("帮爷爷在地里挖了一下午土豆", "在爷爷那儿我收了什么？"),
    ("第一次去献血，没想象中那么疼", "我第一次去捐了什么？"),
    ("给外甥女买了个毛绒玩具，她高兴坏了", "我送了外甥女什么？"),
    ("晚上开始练瑜伽，身体柔软了不少", "睡前我做的运动是什么？"),
    ("姐姐婚礼上我被安排致辞，紧张死了", "我要在谁的婚礼上讲话？"),
    ("外甥今年上小学了，书包比他人还大", "今年谁开始上学了？"),
    ("新公司在国贸，通勤要一个小时", "我现在上班的地方在哪儿？"),
    ("花粉过敏很严重，每天都得吃药", "还记得我过敏的事吗？"),
    ("手机屏幕摔碎了，修花了八百块", "我弄坏了什么拿去修了？"),
    ("为了减肥早餐改吃燕麦了", "我早饭吃什么来着？"),
    ("奶奶住院了，周末去医院看她", "周末我要去医院看谁？"),
    ("骑车摔了一跤，膝盖擦破了皮", "我哪儿受伤了来着？"),
    ("下周有高中同学聚会，十年没见了", "我要参加的是什么聚会？"),
    ("冰箱坏了，里面的东西全坏了", "家里哪个电器出故障了？"),
    ("暑假带侄女去水族馆看了海豚表演", "我带侄女去哪儿玩了？"),
    ("公司年会抽奖抽中了一袋大米", "年会上我拿到了什么奖品？"),
    ("每天走路去车站，瘦了两公斤", "我是怎么减重的？"),
)
ZH_FILLER = (
    "今天天气真好", "是啊，适合出去走走", "中午吃了碗面", "有点困了", "想去看电影", "下班啦", "今天真的好累",
    "外面下雨了", "明天得早起", "周末干点什么好呢", "最近天冷了", "在便利店买了新出的甜点", "地铁又晚点了",
    "忘了晒衣服", "今天在家躺平", "晚饭做什么好呢", "肩膀好酸", "好久没打扫房间了", "我回来啦", "早上好，今天也加油",
    "昨晚熬夜了", "我去洗个澡", "准备睡了", "今天的天空特别好看", "穿新鞋出门了",
)
ZH_REPLIES = (
    "是吗！谢谢你告诉我。", "真不错。", "辛苦了。", "我记住了。", "听起来很有意思！再多说说。", "原来如此。",
    "嗯嗯，然后呢？", "别太累了。", "太好了！",
)

LANGUAGES = {
    "ja": {"kinds": JA_KINDS, "pairs": JA_PAIRS, "filler": JA_FILLER, "replies": JA_REPLIES,
           "users": ("美咲", "健太", "さくら", "大輔", "陽子", "翔", "真由", "拓海", "葵", "悠人", "彩", "蓮", "結衣")},
    "zh": {"kinds": ZH_KINDS, "pairs": ZH_PAIRS, "filler": ZH_FILLER, "replies": ZH_REPLIES,
           "users": ("晓雯", "志强", "婷婷", "浩然", "佳怡", "俊杰", "雨萱", "子轩", "欣怡", "宇航", "梦琪", "天宇", "诗涵")},
}


@dataclass
class Event:
    text: str
    question: str = ""  # asked later about this message (facts only)
    kind: str = "filler"
    ids: list = field(default_factory=list)


def _draw(kind: Kind, rng: random.Random, taken: set) -> dict | None:
    """Slot values for one instance whose key values are not among `taken`."""
    for _ in range(50):
        values = {slot: rng.choice(options) for slot, options in kind.slots.items()}
        key = tuple(str(values[s]) for s in kind.key)
        if key not in taken:
            taken.add(key)
            return values
    return None


def history(lang: str, number: int, pairs: list) -> dict:
    spec = LANGUAGES[lang]
    rng = random.Random(f"{SEED}-{lang}-{number}")
    events: list[Event] = []
    for kind in spec["kinds"]:
        taken: set = set()
        for _ in range(rng.randint(1, kind.most)):
            values = _draw(kind, rng, taken)
            if values is None:
                continue
            events.append(Event(rng.choice(kind.says).format(**values), rng.choice(kind.asks).format(**values), kind.name))
        for template in rng.sample(kind.noise, min(2, len(kind.noise))):
            values = {slot: rng.choice(options) for slot, options in kind.slots.items()}
            events.append(Event(template.format(**values), kind="noise"))
    events += [Event(said, asked, "pair") for said, asked in pairs]
    events += [Event(text) for text in rng.sample(spec["filler"], 18)]
    rng.shuffle(events)
    sessions, start = [], datetime(2025, 9, 1, 20, 0, tzinfo=timezone.utc) + timedelta(days=number)
    at, n = 0, 0
    while at < len(events):
        size = rng.randint(6, 10)
        start += timedelta(days=rng.randint(2, 6), minutes=rng.randint(-90, 90))
        messages = []
        for event in events[at:at + size]:
            messages.append({"id": f"D{n + 1}:{len(messages) + 1}", "role": "USER", "text": event.text})
            event.ids.append(messages[-1]["id"])
            if rng.random() < 0.6:
                messages.append({"id": f"D{n + 1}:{len(messages) + 1}", "role": "AGENT",
                                 "text": rng.choice(spec["replies"])})
        sessions.append({"date": start.isoformat(), "messages": messages})
        at, n = at + size, n + 1
    questions = [{"question": e.question, "evidence": e.ids, "kind": e.kind} for e in events if e.question]
    rng.shuffle(questions)
    return {"id": f"{lang}-{number + 1:02d}", "user": spec["users"][number % len(spec["users"])], "persona": "Ark",
            "sessions": sessions, "questions": questions}


def build(lang: str) -> dict:
    spec = LANGUAGES[lang]
    pairs = list(spec["pairs"])
    random.Random(f"{SEED}-{lang}-pairs").shuffle(pairs)
    share = [pairs[i::HISTORIES] for i in range(HISTORIES)]  # each hand-written pair in one history
    histories = [history(lang, n, share[n]) for n in range(HISTORIES)]
    return {"language": lang, "generated_by": "python -m bench.cjk_sets", "histories": histories,
            "questions": sum(len(h["questions"]) for h in histories)}


def main() -> None:
    DATA_DIR.mkdir(exist_ok=True)
    for lang in LANGUAGES:
        data = build(lang)
        path = DATA_DIR / f"cjk_recall_{lang}.json"
        path.write_text(json.dumps(data, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
        log.info("%s: %d histories, %d questions", path, len(data["histories"]), data["questions"])


if __name__ == "__main__":
    logging.basicConfig(level=logging.INFO, format="%(message)s")
    main()
