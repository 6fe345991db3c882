"""Shared loading for the retrieval research (items = single turns, app-storable fields only).

Paths: the shared data set sits beside the repository (`../shared`, or $NEXUS_SHARED); embeddings
and feature matrices are cached in $LOCOMO_CACHE (default: `locomo_cache` in the temp directory).
"""
import importlib.util, json, re, os, tempfile
from pathlib import Path
import numpy as np

SHARED = Path(os.environ.get("NEXUS_SHARED") or Path(__file__).resolve().parents[3] / "shared")
_spec = importlib.util.spec_from_file_location("locomo_bm25", str(SHARED / "bench" / "locomo_bm25.py"))
ref = importlib.util.module_from_spec(_spec); _spec.loader.exec_module(ref)
DATA = str(SHARED / "data" / "locomo")
FILES = [f"{DATA}/{n}.json" for n in ("26", "30", "41", "42")]
CACHE = os.environ.get("LOCOMO_CACHE") or os.path.join(tempfile.gettempdir(), "locomo_cache")


def parse_date(s):
    import datetime
    m = re.match(r"\s*(\d+):(\d+)\s*(am|pm)\s+on\s+(\d+)\s+(\w+),?\s+(\d{4})", s, re.I)
    if not m:
        return None
    h, mi, ap, d, mon, y = m.groups(); h = int(h) % 12 + (12 if ap.lower() == "pm" else 0)
    mon = datetime.datetime.strptime(mon[:3], "%b").month
    return datetime.datetime(int(y), mon, int(d), h, int(mi))


def conv_turns(conv):
    """What a chat app stores: speaker, text (+ caption for images), session timestamp, position."""
    sess = sorted((k for k in conv if re.fullmatch(r"session_\d+", k) and conv[k]), key=lambda k: int(k.split("_")[1]))
    out = []
    for si, k in enumerate(sess):
        ts = parse_date(conv.get(k + "_date_time", ""))
        for j, t in enumerate(conv[k]):
            body = t["text"] + (" [shares " + t["blip_caption"] + "]" if t.get("blip_caption") else "")
            out.append(dict(id=t["dia_id"], speaker=t["speaker"], body=body, text=t["speaker"] + ": " + body,
                            sess=si, pos=j, ts=ts))
    return out


def load_all():
    convs = []
    for f in FILES:
        conv, qa = ref.load(f)
        turns = conv_turns(conv)
        # sanity: identical text to reference
        assert [t["text"] for t in turns] == [x for _, x in ref.turns_of(conv)]
        convs.append(dict(name=os.path.basename(f)[:-5], turns=turns, qa=qa))
    return convs
