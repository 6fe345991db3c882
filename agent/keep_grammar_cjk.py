"""The "please remember" grammars of Japanese, Chinese and Korean: each finds the request form itself
(te-form + request ending, 帮我/请 + 记, -해 줘/둬) and then rules out quotes, questions, reminiscence and
advice (agent/keep_grammar.py holds the Latin-script grammars and the entry points)."""
from __future__ import annotations

import re

from agent.keep_forms import KeepRequest, inside_quote, sentence_before


# --- Japanese -----------------------------------------------------------------------------
_JA_VERB = (r"(?:覚え|憶え|おぼえ|記憶し|メモし|記録し|書い|書き留め|書きとめ|控え|頭に入れ|心に留め|登録し|保存し|残し"
            r"|リマインドし)(?:て(?:おいて|おいてて|といて|いて|て)?|と(?:いて|いてて|って))|メモっ(?:といて|ておいて|て)")
# … or an emoji or other symbol after it (「覚えといて💕」); "な" not of ない (「覚えてないんだ」 tells)
_JA_ENDING = (r"(?:ね|ねー|よ|よね|な(?![いくかけ])|や(?![っつ])|ください|下さい|くれ(?:る|ない|ます|ません)?(?!て|た|る?かな|るかしら|たら)|"
              r"くれたら(?:嬉しい|うれしい|助か(?:る|ります)|ありがたい)|[^\w\s\u3000-\u30ff\u4e00-\u9fff]|"
              r"もらえ(?:る|ない|ます|ません)|もらっていい|いただけ(?:る|ます|ません)|ほしい|欲しい|ちょうだい|頂戴|"
              r"お願い|〜|～|ー|ぇ|[!！。、,.…♪：:]|\s|[?？](?!.)|$)")
_JA = re.compile(
    rf"(?P<verb>{_JA_VERB})(?={_JA_ENDING})"
    r"|(?P<forget>(?:忘れ|わすれ)(?:ないで|ないように|ずに))(?=ね|よ|ください|くれ|ほしい|欲しい|[!！。、,.〜～ー…]|\s|$)"
    r"|(?P<noun>(?:メモ|記録|リマインド)を?(?:お願い|よろしく|頼む|頼みます|たのむ))")
_JA_TAIL = re.compile(r"(?:くれたら(?:嬉しい|うれしい|助か(?:る|ります)|ありがたい)(?:です|な)?|"
                      r"(?:いただけ|もらえ|くれ)ると(?:嬉しい|うれしい|助か(?:る|ります)|ありがたい)(?:です)?|ね|ねー|よ|よね|な|ください|下さい|くれる|くれない|くれ|くれます|もらえる|もらえない|もらえます|"
                      r"もらえませんか|もらっていい|いただけますか|いただけませんか|いただけます|"
                      r"ほしい(?:な|んだけど|んやけど|んですけど|んだ|です)?|"
                      r"欲しい|ちょうだい|お願い(?:します)?|します)*か?[?？]?")
_JA_ASKS_HOW = re.compile(r"^[、,\s]*(?:[^。！!？?]*?(?:けど|が)[、,]?\s*)?(?:どう|どうやって|どうすれば|なんて|何て)")
_JA_QUOTED = re.compile(r"^(?:ね|よ)?(?:って|と(?:言|いわ|いう|頼|書|話|お願い))|^ように(?:言|伝え)|^(?:って)")


def japanese_request(text: str) -> KeepRequest | None:
    for match in _JA.finditer(text):
        tail = _JA_TAIL.match(text, match.end())
        after = text[tail.end():]
        if _JA_QUOTED.match(text[match.end():]) or _JA_QUOTED.match(after) or inside_quote(text, match.start()):
            continue
        if re.match(r"かな|かしら", after) or _JA_ASKS_HOW.search(after):
            continue  # 「…頭に入れといてほしいんだけど、どう言えばいい？」: how to ask someone else
        return KeepRequest("ja", match.start(), tail.end())
    return None


# --- Chinese ------------------------------------------------------------------------------
_ZH_VERB = (r"(?:记住|記住|记下来?|記下來?|记一下|記一下|记着|記著|记好|記好|记牢|記牢|记录一下|記錄一下|记个|記個|记得|記得|写下来|寫下來"
            r"|存一下|备注一下|记一哈|放(?:在)?心上|(?:整|做|弄|来)个备忘|(?:整|做|弄|来)個備忘|(?:刻|记|記|装|裝|放)(?:在|进|進)?(?:脑子|腦子|脑袋|腦袋|脑海|腦海)里)")
_ZH_LEAD = (r"(?:请|請|麻烦[你您]?|麻煩[你您]?|帮我|幫我|你给我|你給我|你给俺|你|您|你要|你得|你可要|你一定要|一定要|要|给我|給我|给俺"
            r"|能不能帮我|能帮我|可以帮我|帮忙|(?:一定)+要?)")
_ZH = re.compile(
    rf"(?:(?<=^)|(?<=[，,。！!？?：:；;\s~～])|(?<=这个)|(?<=這個)|(?<=以后)|(?<=以後)|(?<=顺便)|(?<=順便)|(?<=对了)|(?<=對了)|(?<=另外)|(?<=还有)|(?<=還有)|(?<=[哎诶欸嘿喂哦噢]))(?P<lead>{_ZH_LEAD})?(?P<verb>{_ZH_VERB})"
    r"|(?P<help>(?:给|給)(?:我|俺)(?:整|做|弄|来|來)(?:个|個)(?:备忘|備忘)|(?:帮我|幫我|帮忙|幫忙|替我)(?:记|記|存着|存著|存一下|备忘|備忘|备注|備註|留(?:个|個)?底)|(?:记|記)到你的?(?:小本本|本子|备忘录|備忘錄|脑子|腦子)里?)"
    r"|(?P<forget>(?:别|別|不要|千万别|千萬別|可别|可別)忘(?:了|记|記)?)"
    r"|(?P<remind>提醒(?:一下)?(?:我们|我們|我)(?!都|也|全|已经|已經|老公|老婆|妈|媽|爸|哥|姐|弟|妹|儿子|兒子|女儿|女兒|朋友|同事|男朋友|女朋友|的|家))")
# someone's words ("妈妈叫我别忘了"), not "叫我小鱼" (call me) at a clause's start
_ZH_TOLD = re.compile(r"(?:(?<![，,。！!？?\s以後后就你您])[让讓叫]|要求|告诉|告訴)(?:我们|我們|我|他们|他|她|你们|你)(?!\S{1,4}就行)"
                      r"|[说說](?:过|過)?[：:，,]?$|(?<![拜委])[让讓叫请請托託](?![我你您])[^\s，,。！!？?：:]{1,4}$")
_ZH_LISTENER = re.compile(r"(?<![问問找跟给給和陪谢謝])(?:你|您)")  # the listener, not as the user's object ("找不到了问你")
_ZH_TO_DO = re.compile(r"[\s，,：:！!。~～啊哦呀吧]*(?:千万|千萬|一定|绝对|絕對)?(?:别|別|不要|要|得)")
_ZH_USERS_SIDE = re.compile(r"我|俺|咱")
_ZH_OWN_MEMORY = re.compile(r"(?:我|俺)(?:还|還|仍然|一直|至今|到现在都?|到現在都?|都)?(?:记得|記得)")
# consoling before the verb ("别难过了，记住，…咱们一起加油"): what follows is encouragement
_ZH_CONSOLING = re.compile(r"别难过|別難過|别伤心|別傷心|不要难过|不要難過|别哭|別哭|别灰心|別灰心|振作")
_ZH_WARNING = re.compile(r"千万|千萬|绝对不|絕對不|一定不")  # "记住，这种短信里的链接千万别点": a warning
_ZH_PAST = re.compile(r"^(?:小时候|以前|那天|那时|當時|当时|上次|第一次|我们第一次|我們第一次|去年|前年|那年)|那会儿?|那會兒?|那时候|那時候|那阵子|那陣子|当年|當年")
_ZH_QUESTION = re.compile(r"[吗嗎么麼][？?。]?$|什么|什麼|哪|谁|誰|几|幾|多少|怎么|怎麼")


_ZH_INDEFINITE = re.compile(r"(?:怕|万一|萬一|要是|如果|说不定|說不定|不管|无论|無論|随便|隨便)\S*")


def _asks_in_chinese(clause: str) -> bool:
    """A question after the verb: in its own clause ("你记得我喜欢什么颜色吗"), or a sentence that ends asking —
    not a "who" further on in a sentence that does not ask ("你记着点，下回我说煤球你别问是谁")."""
    first = re.split(r"[，,；;]", clause, maxsplit=1)[0]
    first = _ZH_INDEFINITE.sub("", first)  # "我怕哪天手机丢了": "some day", after a fear or an if
    return bool(_ZH_QUESTION.search(first) or re.search(r"[？?]\s*$|[吗嗎]\W*$", clause) and _ZH_QUESTION.search(clause))


def chinese_request(text: str) -> KeepRequest | None:
    for match in _ZH.finditer(text):
        before = sentence_before(text, match.start())
        if inside_quote(text, match.start()) or _ZH_TOLD.search(before):
            continue
        if re.search(r"(?:不用|不必|不需要|别|別|不要|甭)$", before):
            continue
        clause_end = re.search(r"[。！!？?]|$", text[match.end():])
        clause = text[match.end():match.end() + clause_end.end()]
        if match.group("verb") and match.group("lead") in (None, "你", "您") and (
                _asks_in_chinese(clause) or _ZH_PAST.search(clause)):
            continue  # "你记得我喜欢什么颜色吗", "记得小时候…": asks or reminisces
        after = text[match.end():]
        advice = _ZH_LISTENER.search(after) or _ZH_TO_DO.match(after) or _ZH_WARNING.search(clause)
        consoled = _ZH_CONSOLING.search(text, 0, match.start()) and not re.search(r"我|俺", after)
        if consoled or advice and not match.group("help") and not _ZH_USERS_SIDE.search(after):
            continue  # "你记住，不管别人咋说，你已经做得很好了", "记住啊，千万别在朋友圈发定位": advice, not a fact
        end = match.end()
        tail = re.match(r"(?:一下|一笔|一筆|着点?|著點?|住|下来|下來|在心上|在心里|在心裡)?(?:哦|啊|哈|呀|喔|噢|嘛|吧|呗|唄|啦|好吗|好嗎)?"
                        r"[，,：:！!。~～]?", text[end:])
        return KeepRequest("zh", match.start(), end + tail.end())
    return None




# --- Korean -------------------------------------------------------------------------------
_KO = re.compile(
    r"(?:기억|메모|기록|저장|리마인드|킵) ?(?:좀 )?(?:해|하여|혀) ?(?:줘요|줘|줭|조|주세요|주실 ?수 ?있(?:을까요|나요|으세요|어요)|줄래요|줄래|주실래요|주겠어|주라|둬요|둬|두세요|놔요|놔"
    r"|놓아 ?줘|놓으세요|둘래|두십시오|주십시오|줄 ?수 ?있(?:어|어요|을까|을까요|나요|니)|뒀다가|두고|놨다가|두셈|둬라|두그래이|둬래이)"
    r"|기억헤 ?줘|(?:기억|메모|기록|저장)(?:해|혀) ?(?:두거라|두어라|둬라이)|(?:기억|메모)했다가[^.!?]{0,40}(?:줘|주세요|줄래)|(?:기억|메모)해 ?도(?=[.!~,]|$)"
    r"|(?:기억|메모|기록|저장) ?해 ?주시면 (?:좋겠|감사하|고맙)|기억하기로 (?:약속|해)|기억하기 약속"
    r"|(?:기억|메모|기록|저장) ?(?:ㄱㄱ|고고|하셈|하삼|해라)|기억하[고구] ?있어 ?(?:줘요|줘|주세요)"
    r"|기억하(?:구|고)(?=[~!.ㅋㅎ]|\s*$)|(?:알아|기억해|적어) ?두고[^.!?]{0,40}(?:줘|주세요|줄래)"
    r"|(?:기억|메모|기록|저장|보관) ?(?:좀 )?부탁(?:해요|해|합니다|드려요|드립니다)?(?=[.!~,:]|\s|$)"
    r"|(?:기억|메모|기록|저장)(?:해|혀)(?=[.!~,ㅋㅎ]|\s*$)|기억하세요(?![?？])|기억해요(?=[.!~]|$)"
    r"|(?:머릿속|머리)에 (?:딱 |꼭 )?넣어 ?(?:놔|둬|줘)|(?:적어|외워|알아) ?(?:줘요|줘|조|주세요|줄래|둬요|둬|두세요|두셈|놓으소|두소|놔 ?줘|놔|놓아|(?:둘|줄) ?수 ?있(?:어|어요|을까|을까요|나요|니))"
    r"|(?:잊|까먹)(?:지|어 ?버리지|어불지|어 ?먹지|어 ?묵지) ?(?:마세요|마요|마라|마|말어|말아 ?(?:줘요|줘|주세요)|말고|말기를)(?!라고|고 |\"|”)|잊으면 안 ?돼"
    r"|(?<=라고|다고|자고) ?(?:알려|상기시켜|리마인드해) ?(?:줘요|줘|주세요|줄래)")
_KO_OTHER = re.compile(r"^\s*(?!나|저|내|제)\S+(?:한테|에게|께)\s")


# the listener alone ("넌 혼자가 아니야"), or what the listener is to do ("안전벨트 꼭 매는 거 잊지 마"), with no one of the user's side
_KO_LISTENER = re.compile(r"(?:^|\s)(?:너|넌|너도|네가|니가|너는)(?:\s|$)")
_KO_TO_DO = re.compile(r"(?:는|할) ?거 (?:꼭 )?잊지")
_KO_USERS_SIDE = re.compile(r"(?:^|\s)(?:나|내|난|저|제|전|우리)(?:\s|[가는도를의])")


def korean_request(text: str) -> KeepRequest | None:
    if _KO_OTHER.match(text):
        return None  # "남편한테 우유 사 오라고 알려 줘": a request about someone else
    first = _KO.search(text)
    if first and (_KO_LISTENER.search(text, first.end()) or _KO_TO_DO.search(text)) and not _KO_USERS_SIDE.search(text):
        return None  # "꼭 기억해, 넌 혼자가 아니야" ("네가 기억해줘" asks: the listener is who is to keep it)
    for match in _KO.finditer(text):
        # someone's words ("…적어 두래", "기억하라고 했어"); Gyeongsang "적어놔래이" asks
        if inside_quote(text, match.start()) or re.match(r"\s*(?:이?라고|고 (?:했|하|말)|래(?!이)|라며)", text[match.end():]):
            continue
        if re.search(r"(?:둬|놔|해)$", match.group(0)) and re.match(r"\s*[?？]", text[match.end():]):
            continue  # "너는 대화 내용 다 기억해둬?": whether it does ("기억해 줄래?" asks)
        tail = re.match(r"[~!.,]*", text[match.end():])
        return KeepRequest("ko", match.start(), match.end() + tail.end())
    return None


def declined_in_cjk(text: str) -> bool:
    """A request's form found, and every one ruled out (「我妈又说：记住，千万别熬夜」: her words); or the user's
    own remembering (「我还记得小时候…」)."""
    return bool(_ZH_OWN_MEMORY.search(text)) or any(form.search(text) and read(text) is None for form, read in
               ((_JA, japanese_request), (_ZH, chinese_request), (_KO, korean_request)))
