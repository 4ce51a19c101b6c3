"""`re`'s functions over a larger cache of compiled patterns, kept least-recently-used.

The rules spell most of their patterns where they are used (`rx.match(rf"…", body)`). They have more
than `re` keeps compiled (512 in CPython 3.11, dropped first in, first out), so a turn compiled most
of them again: a third of its CPU. Here the rules' own patterns stay compiled; the few built from a
turn's words (`re.escape(value)`) come and go without pushing them out.
"""

import functools
import re

compile = functools.lru_cache(maxsize=4096)(re.compile)  # noqa: A001 (re's name, on purpose)


def match(pattern, string, flags=0):
    return compile(pattern, flags).match(string)


def fullmatch(pattern, string, flags=0):
    return compile(pattern, flags).fullmatch(string)


def search(pattern, string, flags=0):
    return compile(pattern, flags).search(string)


def sub(pattern, repl, string, count=0, flags=0):
    return compile(pattern, flags).sub(repl, string, count)


def split(pattern, string, maxsplit=0, flags=0):
    return compile(pattern, flags).split(string, maxsplit)


def finditer(pattern, string, flags=0):
    return compile(pattern, flags).finditer(string)


def findall(pattern, string, flags=0):
    return compile(pattern, flags).findall(string)
