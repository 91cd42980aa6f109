"""The paragraphs of a JATS article as Python's standard XML parser reads them: the text of
every <p> of the body, the floats group (tables, figures and their footnotes and captions)
and the back matter, in that order, whitespace collapsed. Footnote groups and reference
lists are left out, as the conversion leaves them out. Prints a JSON list."""
import json
import re
import sys
import xml.etree.ElementTree as ET

LEFT_OUT = {'fn-group', 'ref-list'}


def paragraphs(element, found):
    if element.tag in LEFT_OUT:
        return
    if element.tag == 'p':
        found.append(re.sub(r'\s+', ' ', ''.join(element.itertext())).strip())
        return
    for child in element:
        paragraphs(child, found)


root = ET.parse(sys.argv[1]).getroot()
found = []
for part in ('body', 'floats-group', 'back'):
    element = root.find(part)
    if element is not None:
        paragraphs(element, found)
print(json.dumps([p for p in found if p]))
