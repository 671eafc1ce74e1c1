"""A Chinese place typed in lower case in a hurry ("a business trip to chengdu", "fly to xi'an on monday"): the word
right after a cue is a place when it spells two or more syllables of Hanyu Pinyin, runs five letters or more, and is
followed by nothing that makes it a verb (an object: "to guide the team", "to open our office") — the rule a person
would state for "chengdu", "shanghai" or "wulumuqi", written from the syllable table, not from the places tried.
English words that happen to spell Pinyin ("change", "longer") are caught by what follows them where they are verbs;
a capitalised name is read before this (`tools.readers._after_en`)."""

from __future__ import annotations

import re

_SYLLABLES = """
a ai an ang ao ba bai ban bang bao bei ben beng bi bian biao bie bin bing bo bu ca cai can cang cao ce cen ceng cha chai
chan chang chao che chen cheng chi chong chou chu chua chuai chuan chuang chui chun chuo ci cong cou cu cuan cui cun cuo
da dai dan dang dao de dei den deng di dian diao die ding diu dong dou du duan dui dun duo e ei en eng er fa fan fang fei
fen feng fo fou fu ga gai gan gang gao ge gei gen geng gong gou gu gua guai guan guang gui gun guo ha hai han hang hao he
hei hen heng hong hou hu hua huai huan huang hui hun huo ji jia jian jiang jiao jie jin jing jiong jiu ju juan jue jun ka
kai kan kang kao ke ken keng kong kou ku kua kuai kuan kuang kui kun kuo la lai lan lang lao le lei leng li lia lian liang
liao lie lin ling liu long lou lu lv luan lue lun luo ma mai man mang mao me mei men meng mi mian miao mie min ming miu mo
mou mu na nai nan nang nao ne nei nen neng ni nian niang niao nie nin ning niu nong nou nu nv nuan nue nuo o ou pa pai pan
pang pao pei pen peng pi pian piao pie pin ping po pou pu qi qia qian qiang qiao qie qin qing qiong qiu qu quan que qun ran
rang rao re ren reng ri rong rou ru ruan rui run ruo sa sai san sang sao se sen seng sha shai shan shang shao she shei shen
sheng shi shou shu shua shuai shuan shuang shui shun shuo si song sou su suan sui sun suo ta tai tan tang tao te teng ti
tian tiao tie ting tong tou tu tuan tui tun tuo wa wai wan wang wei wen weng wo wu xi xia xian xiang xiao xie xin xing
xiong xiu xu xuan xue xun ya yan yang yao ye yi yin ying yo yong you yu yuan yue yun za zai zan zang zao ze zei zen zeng
zha zhai zhan zhang zhao zhe zhei zhen zheng zhi zhong zhou zhu zhua zhuai zhuan zhuang zhui zhun zhuo zi zong zou zu zuan
zui zun zuo
""".split()
"""The syllables of Hanyu Pinyin (tones and ü written v left aside)."""
_SYLLABLE = "(?:" + "|".join(sorted(_SYLLABLES, key=len, reverse=True)) + ")"
_PLACE = re.compile(rf"(?:{_SYLLABLE}'?){{2,}}")
_WORD = re.compile(r"([a-z][a-z']*)\b(?P<after>\s*\S*)")
_FOLLOWED = re.compile(r"^\s*(?:$|[,.;:!?)]|(?:for|next|on|this|from|till|until|to|at|in|tomorrow|today|and|the\s+week|"
                       r"with|during|over|between|mon\w*|tue\w*|wed\w*|thu\w*|fri\w*|sat\w*|sun\w*|dec\w*|jan\w*)\b)",
                       re.IGNORECASE)
"""What may follow a place: the sentence's end, or a word of when, why or with whom ("to chengdu for the workshop")."""


def lower_case_place(rest: str) -> str:
    """The lower-case Pinyin place at the start of `rest` (what follows a cue), or ""."""
    word = _WORD.match(rest.lstrip())
    if word is None or len(word.group(1)) < 5 or not _PLACE.fullmatch(word.group(1)):  # xi'an: 5, its mark counted
        return ""
    return word.group(1) if _FOLLOWED.match(rest.lstrip()[word.end(1):]) else ""
