#!/usr/bin/env python3
"""A reference reading of the links in a vault, to check omh's against.

Written from each tool's documentation of its link syntax and of how it finds
the note a link names, and on purpose sharing nothing with omh's parser
(vault/links.go, vault/dialect.go): regular expressions over the text where
omh uses a markdown parser, lookups over the file list where omh uses its
index. Where the two disagree, one of them misreads the documentation.

    python3 scripts/reflinks.py VAULT [NOTE...]

VAULT is a repository whose .omh/config.yaml (written by `omh init`) names
the notes root and the dialect; NOTE is a key under the notes root (all notes
when none is given). It prints one JSON object per note:
{"key", "links": [{"line", "form", "written", "key", "status"}]}, where status
is "resolved" (key is the note), "ambiguous", "dangling", or "not-a-note" (a
picture or other file, a page outside the vault or the site, a pattern).

What each dialect reads, as its documentation says:
  obsidian  [[target#heading|label]], ![[embed]], "\\|" for the pipe inside
            tables, [text](path.md) with %20 for spaces; in [[note]](text)
            the wiki link is the link. A name without a folder is a file
            name anywhere in the vault; of several files
            with that name the one in the linking note's folder is meant;
            "./" and "../" are relative to the linking note; a name with
            folders is a path from the vault's root, or its trailing part.
            Aliases only offer names to the link picker.
  dendron   [[label|note]] with the label first, [[dendron://vault/note]],
            ![[note#anchor]] note references (![[note.*]] embeds a
            hierarchy), #tag for the note tags.tag. Note names are file
            names, dots for hierarchy.
  markdown  a markdown site (DocFX): [text](relative/path.md), URL-encoded;
            "~/" is the docset's root; "/site/path/x" is the published site,
            the notes root when under site:; [!include[title](path)]. [[...]]
            is no link.
  omh       [[target#heading|label]] and relative markdown links; a name is a
            key, else the unique key ending with it on a "/", else the unique
            alias (omh's own rules, as its README says).
"""
import json
import os
import re
import subprocess
import sys
import urllib.parse


def read_config(vault):
    """The few settings of .omh/config.yaml this needs, read line by line."""
    cfg = {"notes": "", "dialect": "omh", "site": "", "vaults": {}}
    path = os.path.join(vault, ".omh", "config.yaml")
    if not os.path.exists(path):
        return cfg
    section = None
    for line in open(path, encoding="utf-8"):
        line = line.split(" #")[0].rstrip()
        if not line or line.lstrip().startswith("#"):
            continue
        if line.startswith((" ", "\t")):
            if section == "vaults":
                name, _, folder = line.strip().partition(":")
                cfg["vaults"][name.strip()] = folder.strip() or "."
            continue
        name, _, value = line.partition(":")
        section = name.strip()
        if section in ("notes", "dialect", "site"):
            cfg[section] = value.strip().strip("\"'")
    return cfg


def notes_of(vault, root):
    """Every note's key (its path under the notes root without .md), from
    git's list of files, the way git would check them out."""
    out = subprocess.run(["git", "-C", vault, "ls-files", "-z"], capture_output=True, check=True).stdout
    keys = []
    for f in out.decode("utf-8").split("\0"):
        if not f.endswith(".md") or f.startswith(".omh/"):
            continue
        if root:
            if not f.startswith(root + "/"):
                continue
            f = f[len(root) + 1:]
        keys.append(f[:-3])
    return keys


# ---- text that holds no links -------------------------------------------

FENCE = re.compile(r"^[ \t]*(`{3,}|~{3,})")


def blank_out(text):
    """Replace frontmatter, fenced code, code spans and HTML comments with
    spaces, keeping every line where it was."""
    lines = text.split("\n")
    out = []
    i = 0
    if lines and lines[0].strip() == "---":
        for j in range(1, len(lines)):
            if lines[j].strip() in ("---", "..."):
                out = [""] * (j + 1)
                i = j + 1
                break
    fence = None
    while i < len(lines):
        line = lines[i]
        m = FENCE.match(line)
        if fence:
            if m and m.group(1)[0] == fence[0] and len(m.group(1)) >= len(fence) and line.strip() == m.group(1):
                fence = None
            out.append("")
        elif m and not (m.group(1)[0] == "`" and "`" in line[m.end():]):
            fence = m.group(1)
            out.append("")
        else:
            out.append(line)
        i += 1
    body = "\n".join(out)
    blank = lambda m: re.sub(r"[^\n]", " ", m.group(0))
    body = re.sub(r"<!--.*?-->", blank, body, flags=re.S)
    # Raw HTML is passed through as it is: its attributes hold no links.
    body = re.sub(r"</?[A-Za-z][A-Za-z0-9-]*(?:\s[^<>]*)?/?>", blank, body)
    # Code spans: a run of backticks up to the next run of the same length,
    # within a paragraph.
    def spans(m):
        return re.sub(r"[^\n]", " ", m.group(0))
    body = re.sub(r"(?<!`)(`+)(?!`)((?:(?!\n\s*\n).)*?)(?<!`)\1(?!`)", spans, body, flags=re.S)
    return body


# ---- the links each dialect writes ---------------------------------------

WIKI = re.compile(r"(!?)\[\[([^\[\]\n]+?)\]\]")
# [text](destination "title"): text may hold one level of brackets, as in
# DocFX's [!include[title](path)]; an image ![alt](src) is no link.
INLINE = re.compile(r"(?<![!\\])\[((?:[^\[\]\n]|\[[^\[\]\n]*\])*)\]\(\s*(<[^>\n]*>|(?:[^()\s]|\([^()\s]*\))+)(?:\s+(?:\"[^\"\n]*\"|'[^'\n]*'))?\s*\)")
REFDEF = re.compile(r"^ {0,3}\[([^\]\n]+)\]:\s*(<[^>\n]*>|\S+)", re.M)
REFUSE = re.compile(r"(?<![!\\\]])\[([^\[\]\n]+)\](?:\[([^\[\]\n]*)\])?(?![(:\[])")
HASHTAG = re.compile(r"(?:(?<=\s)|^)#([A-Za-z][\w./-]*)", re.M)
SCHEME = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*:")


def line_of(text, at):
    return text.count("\n", 0, at) + 1


def links_in(text, dialect):
    """Every link as (line, form, written, kind): kind is "wiki" (a name) or
    "path" (a markdown destination, decoded)."""
    body = blank_out(text)
    found = []
    if dialect != "markdown":
        for m in WIKI.finditer(body):
            inner = m.group(2)
            embed = m.group(1) == "!"
            escaped = "\\|" in inner
            inner = inner.replace("\\|", "|")
            first, bar, second = inner.partition("|")
            form = "embed" if embed else "wiki"
            if dialect == "dendron" and bar:
                name, form = second, form + " label-first"
            else:
                name = first
                if bar:
                    form += " labelled"
            if escaped:
                form += " escaped-pipe"
            name = re.split(r"[#^]", name, 1)[0].strip()
            if dialect == "dendron" and name.lower().startswith("dendron://"):
                form += " dendron://"
            if "#" in inner or "^" in inner:
                form += " fragment"
            if name == "":
                continue
            found.append((line_of(body, m.start()), form, name, "wiki"))
    if dialect == "dendron":
        for m in HASHTAG.finditer(body):
            tag = m.group(1).rstrip("./")
            found.append((line_of(body, m.start()), "hashtag", "tags." + tag, "wiki"))
    defs = {}
    for m in REFDEF.finditer(body):
        defs.setdefault(" ".join(m.group(1).lower().split()), m.group(2))
    spans = []
    for m in INLINE.finditer(body):
        spans.append((m.start(), m.end()))
        if dialect == "obsidian" and re.fullmatch(r"\[[^\[\]]*\]", m.group(1)):
            continue  # [[note]](text): Obsidian reads the wiki link, the rest is text
        form = "markdown"
        if re.search(r"\[!include", body[max(0, m.start() - 9):m.start() + 1], re.I):
            form = "docfx-include"
        add_destination(found, line_of(body, m.start()), form, m.group(2))
    for m in REFUSE.finditer(body):
        if any(s <= m.start() < e for s, e in spans):
            continue
        label = m.group(2) or m.group(1)
        if label.startswith("^"):
            continue  # a footnote
        dest = defs.get(" ".join(label.lower().split()))
        if dest is not None and not body[m.start() - 1:m.start()] == "[":
            add_destination(found, line_of(body, m.start()), "markdown reference", dest)
    return sorted(found)


def add_destination(found, line, form, dest):
    dest = dest.strip()
    if dest.startswith("<") and dest.endswith(">"):
        dest = dest[1:-1]
    if not dest or dest.startswith("#") or SCHEME.match(dest):
        return
    dest = re.sub(r"\\([!-/:-@\[-`{-~])", r"\1", dest)
    path = re.split(r"[#?]", dest, 1)[0]
    if not path:
        return
    if "%" in path:
        form += " url-encoded"
    if path.startswith("~/"):
        form += " docset-root"
    elif path.startswith("/"):
        form += " site-absolute"
    decoded = urllib.parse.unquote(path)
    found.append((line, form, decoded, "path"))


# ---- where a link leads --------------------------------------------------

# Files a link may name that are no notes: the formats Obsidian embeds
# (pictures, audio, video, PDF, canvases, bases), and the resources a
# markdown site links to (data, documents, archives, code).
NOT_NOTES = set("""avif bmp gif jpeg jpg png svg webp ico tif tiff heic flac m4a mp3 ogg wav webm 3gp
mkv mov mp4 ogv avi pdf canvas base excalidraw yml yaml json xml toml csv tsv txt html htm css js ts
zip gz tgz tar 7z rar doc docx xls xlsx xlsm ppt pptx odt ods odp rtf epub py go sh ps1 bas cls frm vb""".split())


def is_file(name, kind, dialect):
    """A name that ends in the extension of a file that is not a note.
    Dendron's wiki links name notes only, dots and all."""
    if dialect == "dendron" and kind == "wiki":
        return False
    last = name.rsplit("/", 1)[-1]
    return "." in last and last.rsplit(".", 1)[1].lower() in NOT_NOTES

class Vault:
    def __init__(self, keys, cfg):
        self.cfg = cfg
        self.keys = set(keys)
        self.lower = {}
        self.by_name = {}
        for k in keys:
            self.lower.setdefault(k.lower(), []).append(k)
            self.by_name.setdefault(k.rsplit("/", 1)[-1].lower(), []).append(k)

    def exact(self, path):
        """A key written in any letter case; the one in that case first."""
        if path in self.keys:
            return path, False
        found = self.lower.get(path.lower(), [])
        if len(found) == 1:
            return found[0], False
        return None, len(found) > 1

    def status(self, source, written, kind):
        """Where a link leads: (key, status)."""
        key, ambiguous = self.resolve(source, written, kind)
        if key:
            return key, "resolved"
        if ambiguous:
            return None, "ambiguous"
        if key is False or is_file(written, kind, self.cfg["dialect"]):
            return None, "not-a-note"
        return None, "dangling"

    def resolve(self, source, written, kind):
        """(key, ambiguous); key False when the link leaves the vault."""
        d = self.cfg["dialect"]
        folder = source.rsplit("/", 1)[0] if "/" in source else ""
        name = written
        if name.lower().endswith(".md"):
            name = name[:-3]
        if kind == "path":
            return self.resolve_path(folder, name)
        if d == "dendron":
            if name.lower().startswith("dendron://"):
                vault, _, note = name[len("dendron://"):].partition("/")
                if self.cfg["vaults"]:
                    if vault not in self.cfg["vaults"]:
                        return None, False
                    base = self.cfg["vaults"][vault]
                    return self.exact(note if base in (".", "") else base + "/" + note)
                name = note
            if "*" in name:
                return False, False  # a pattern, embedding a hierarchy
            return self.by_suffix(name, None)
        if d == "obsidian":
            if name.startswith("./") or name.startswith("../"):
                return self.exact(norm(join(folder, name)))
            return self.by_suffix(name, folder)
        return self.by_suffix(name, None)

    def by_suffix(self, name, near):
        key, ambiguous = self.exact(name)
        if key or ambiguous:
            return key, ambiguous
        last = name.rsplit("/", 1)[-1].lower()
        found = sorted(k for k in self.by_name.get(last, []) if k.lower().endswith("/" + name.lower()))
        if len(found) > 1 and near is not None:
            here = [k for k in found if (k.rsplit("/", 1)[0] if "/" in k else "") == near]
            if len(here) == 1:
                found = here
        if len(found) == 1:
            return found[0], False
        return None, len(found) > 1

    def resolve_path(self, folder, path):
        d = self.cfg["dialect"]
        if d == "markdown" and path.startswith("~/"):
            target = norm(path[2:])
        elif path.startswith("/"):
            site = self.cfg["site"]
            if site:
                site = "/" + site.strip("/") + "/"
                if not path.lower().startswith(site.lower()):
                    return False, False  # elsewhere on the site
                path = path[len(site):]
            target = norm(path.lstrip("/"))
        else:
            target = norm(join(folder, path))
        if target is None:
            return False, False  # above the notes root
        key, ambiguous = self.exact(target)
        if key is None and not ambiguous and d == "obsidian" and not path.startswith(("/", "./", "../")):
            return self.by_suffix(path, folder)
        return key, ambiguous


def join(folder, rel):
    return rel if not folder else folder + "/" + rel


def norm(path):
    parts = []
    for p in path.split("/"):
        if p in ("", "."):
            continue
        if p == "..":
            if not parts:
                return None
            parts.pop()
        else:
            parts.append(p)
    return "/".join(parts) if parts else None


def read_note(vault, cfg, key):
    root = cfg["notes"]
    path = os.path.join(vault, root, key + ".md") if root else os.path.join(vault, key + ".md")
    with open(path, encoding="utf-8", errors="replace") as f:
        return f.read()


def main():
    if len(sys.argv) < 2:
        print(__doc__, file=sys.stderr)
        sys.exit(2)
    vault = sys.argv[1]
    cfg = read_config(vault)
    keys = notes_of(vault, cfg["notes"])
    index = Vault(keys, cfg)
    for key in sys.argv[2:] or keys:
        links = []
        for line, form, written, kind in links_in(read_note(vault, cfg, key), cfg["dialect"]):
            target, status = index.status(key, written, kind)
            links.append({"line": line, "form": form, "written": written, "key": target, "status": status})
        print(json.dumps({"key": key, "links": links}, ensure_ascii=False))


if __name__ == "__main__":
    main()
