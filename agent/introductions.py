"""The name a user gives when they introduce themself ("I'm Ken", 「ハルカです」, "Je m'appelle Camille").

With no name in Settings the persona knew the user only as "User" and, told "Hi! I'm Ken.", answered
"Hello! I'm Ken." (issue 18). The name introduced is what the reply guard protects, and the page
offers to save it.
"""
from __future__ import annotations

import re
from functools import lru_cache

import constants

_NAME = r"(?P<name>[A-Z\u00c0-\u00de][a-z\u00df-\u00ff'’-]{1,20}(?: [A-Z\u00c0-\u00de][a-z\u00df-\u00ff'’-]{1,20})?)"
_KATAKANA_NAME = r"(?P<name>[\u30a0-\u30ff]{2,8})"
_CJK_NAME = r"(?P<name>[\u3400-\u9fff\u30a0-\u30ff\u3040-\u309f]{1,8}?)"
_GREETING = (r"(?:hi|hello|hey|good (?:morning|evening|afternoon)|bonjour|bonsoir|salut|coucou|hola|buenas(?: noches| tardes)?"
             r"|buenos días|hallo|guten (?:morgen|tag|abend)|ciao|olá|oi)\b[^.!?]{0,20}[.!?,]\s*")

# A Chinese or Korean name starts with a family name: the commonest ones, which tell 王磊 and 민수 from
# 老师 and 학생 (a teacher, a student).
_CHINESE_SURNAMES = ("王李张刘陈杨黄赵吴周徐孙马朱胡郭何高林罗郑梁谢宋唐许韩冯邓曹彭曾肖田董袁潘于蒋蔡余杜叶程苏魏吕丁任"
                     "沈姚卢姜崔钟谭陆汪范金石廖贾夏韦付方白邹孟熊秦邱江尹薛闫段雷侯龙史陶黎贺顾毛郝龚邵万钱严覃武戴莫孔向汤")
_KOREAN_SURNAMES = "김이박최정강조윤장임한오서신권황안송류전홍고문양손배백허유남심노하곽성차주우구민진지엄채원천방공현함변염여추도소석선설마길연위표명기반왕금옥육인맹모탁국어은편용예경봉사부가복태목형피두감호"

_INTRODUCTIONS = (
    # "I'm Ken." / "Hi, I am Ken!" / "My name is Ken" / "Call me Ken" — a name, then the end of the
    # clause: "I'm Tired" is no name (lower-case words are not names) and "I'm Ken's sister" is not his.
    re.compile(rf"(?:^|[.!?,;]\s*|\b(?i:hi|hello|hey|yo)[,!]?\s+)(?i:i'm|i am|i’m)\s+{_NAME}(?=\s*(?:[.!,?;)]|$| here\b| from\b| and\b))"),
    re.compile(rf"(?i:{_GREETING})(?i:it's|this is|c'est|c’est|soy|sono|sou)\s+{_NAME}(?=\s*(?:[.!,?;)]|$| here\b| ici\b| aquí\b| hier\b))"),
    re.compile(rf"\b(?:my name is|my name's|call me|name's)\s+{_NAME}(?=\s*(?:[.!,?;)]|$| and\b| by\b))", re.IGNORECASE),
    re.compile(rf"\b(?:je m'appelle|je m’appelle|moi c'est|me llamo|mi nombre es|ich heiße|ich heisse|mein name ist|mi chiamo|meu nome é)\s+{_NAME}",
               re.IGNORECASE),
    # Japanese: 「ハルカです」 opening a message or after a greeting, 「私はハルカです」, 「ハルカと申します」, 「名前はハルカ」
    # A katakana name opening the message or after a greeting (「ハルカです。」); any name after 私は, or
    # before と申します / といいます (「楽しみです」「学生です」 are no introductions).
    re.compile(rf"(?:^|(?:こんにちは|こんばんは|おはよう|おはようございます|はじめまして|初めまして)[、。！!\s]*){_KATAKANA_NAME}"
               r"(?:です|だよ|だよー|でーす)(?:[。！!、\s]|$)"),
    re.compile(rf"(?:私|僕|俺|わたし|あたし)は{_KATAKANA_NAME}(?:です|だよ|と申します|といいます)(?:[。！!、\s]|$)"),
    re.compile(rf"(?:^|[、。！!\s]){_CJK_NAME}(?:と申します|といいます|って言います|って呼んで)"),
    re.compile(rf"(?:私|僕|俺|わたし|あたし)の名前は{_CJK_NAME}(?:です|だよ|。|！|$)"),
    # Chinese: 我叫王磊 / 我是王磊 (after a greeting or opening the message)
    # Chinese: 我叫王磊 / 我是王磊 — a name starts with a family name (我是老师 is no introduction)
    re.compile(rf"(?:^|[，,。！!\s]|你好|晚上好|早上好)我(?:叫|是)(?P<name>[{_CHINESE_SURNAMES}][\u4e00-\u9fff]{{1,2}})(?=[。！!，,\s]|$)"),
    # Korean: 저는 민수입니다 / 제 이름은 민수예요
    re.compile(rf"(?:저는|나는|제 이름은|내 이름은)\s*(?P<name>[{_KOREAN_SURNAMES}][\uac00-\ud7af]{{1,3}}?)(?:입니다|이에요|예요|이야|야)"),
)
# Words that follow "I'm" / 「…です」 and are no names.
_NOT_NAMES = frozenset("""
monday tuesday wednesday thursday friday saturday sunday january february march april may june july august
september october november december christmas
canadian australian italian brazilian indian korean mexican russian dutch swiss irish scottish welsh european asian
vegan vegetarian catholic muslim jewish christian buddhist
so sorry fine good great ok okay back home here there tired sad happy glad excited nervous sure not just
really very also still going done ready new sick busy free hungry english japanese french german spanish
chinese korean american british the a an in on at
です だよ 大丈夫 元気 学生 社会人 会社員 日本人 今日 明日 昨日 ここ そう 本当 無理 平気 私 僕 俺 ちょっと 好き 嫌い
""".split())


@lru_cache(maxsize=constants.INTRODUCTION_CACHE_SIZE)
def introduced_name(text: str) -> str:
    """The name the message introduces its writer by, or "" when it introduces none. Kept per text:
    a turn asks it of every user message in its history scan, several times (persona/session.py), and
    the patterns took 78 ms a call at 10k messages (`bench scale`, session 52)."""
    for pattern in _INTRODUCTIONS:
        match = pattern.search(text.strip())
        if match:
            name = match.group("name").strip(" '’")
            if name.casefold() not in _NOT_NAMES and not any(w.casefold() in _NOT_NAMES for w in name.split()):
                return name
    return ""
