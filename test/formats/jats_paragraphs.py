"""The paragraphs of a JATS article as Python's standard XML parser reads them: the text of
every <p> of the body, the floats group (tables, figures and their footnotes and captions)
and the back matter, in that order, whitespace collapsed. Footnote groups and reference
lists are left out, as the conversion leaves them out. Prints a JSON list.

A formula's text is read by the rule src/formats/README.md states, written again here on
this parser: MathML token text (mi, mo, mn, mtext, ms; each trimmed, joined), else TeX
(without PMC's LaTeX wrapper and $ delimiters), else alt-text, else "[formula]"; labels
left out; a display formula set off by spaces.

With --formulas, prints [{"paragraph": …, "formulas": [text, …]}] for the paragraphs that
hold formulas."""
import json
import re
import sys
import xml.etree.ElementTree as ET

LEFT_OUT = {'fn-group', 'ref-list'}
FORMULAS = {'inline-formula', 'disp-formula'}
TOKENS = {'mi', 'mo', 'mn', 'mtext', 'ms'}


def local(tag):
    return tag.rsplit('}', 1)[-1].rsplit(':', 1)[-1]


def is_formula(element):
    return element.tag in FORMULAS or local(element.tag) in ('math', 'tex-math')


def mathml(element):
    out = ''
    for child in element:
        name = local(child.tag)
        if name in TOKENS:
            out += ''.join(child.itertext()).strip()
        elif name == 'mspace':
            out += ' '
        elif name not in ('annotation', 'annotation-xml'):
            out += mathml(child)
    return out


def tex(element):
    source = ''.join(element.itertext())
    body = re.search(r'\\begin\{document\}(.*?)\\end\{document\}', source, re.S)
    if body:
        source = body.group(1)
    source = source.strip()
    source = re.sub(r'^\$\$?(.*?)\$\$?$', r'\1', source, flags=re.S)
    source = re.sub(r'^\\\[(.*?)\\\]$', r'\1', source, flags=re.S)
    return source.strip()


def first(element, name):
    for child in element:
        if local(child.tag) == name:
            return child
        if child.tag in FORMULAS:
            continue
        found = first(child, name)
        if found is not None:
            return found
    return None


def formula(element):
    own = local(element.tag)
    if own == 'math':
        text = mathml(element)
    elif own == 'tex-math':
        text = tex(element)
    else:
        m, t, a = first(element, 'math'), first(element, 'tex-math'), first(element, 'alt-text')
        text = mathml(m) if m is not None else tex(t) if t is not None else ''.join(a.itertext()) if a is not None else ''
    text = text.strip() or '[formula]'
    return f' {text} ' if element.tag == 'disp-formula' else text


def text_of(element, formulas):
    if is_formula(element):
        formulas.append(formula(element).strip())
        return formula(element)
    out = element.text or ''
    for child in element:
        out += text_of(child, formulas) + (child.tail or '')
    return out


def collapse(text):
    return re.sub(r'\s+', ' ', text).strip()


def paragraphs(element, found):
    if element.tag in LEFT_OUT:
        return
    if element.tag == 'p':
        formulas = []
        found.append({'paragraph': collapse(text_of(element, formulas)), 'formulas': [collapse(f) for f in formulas]})
        return
    for child in element:
        paragraphs(child, found)


root = ET.parse(sys.argv[1]).getroot()
found = []
for part in ('body', 'floats-group', 'back'):
    element = root.find(part)
    if element is not None:
        paragraphs(element, found)
found = [p for p in found if p['paragraph']]
if '--formulas' in sys.argv[2:]:
    print(json.dumps([p for p in found if p['formulas']]))
else:
    print(json.dumps([p['paragraph'] for p in found]))
