"""Reads a BioC XML collection with Python's own XML parser and checks every annotation:
its text must equal the document text at its location (passages placed at their offsets,
offsets in code points as Python counts them). Prints {documents, annotations, mismatches}."""
import json
import sys
import xml.etree.ElementTree as ET

root = ET.parse(sys.argv[1]).getroot()
documents = annotations = mismatches = 0
for document in root.iter('document'):
    documents += 1
    chars = {}
    for passage in document.iter('passage'):
        offset = int(passage.findtext('offset'))
        for i, c in enumerate(passage.findtext('text') or ''):
            chars[offset + i] = c
    for annotation in document.iter('annotation'):
        for location in annotation.iter('location'):
            annotations += 1
            start, length = int(location.get('offset')), int(location.get('length'))
            found = ''.join(chars.get(i, '\n') for i in range(start, start + length))
            if found != (annotation.findtext('text') or ''):
                mismatches += 1
print(json.dumps({'documents': documents, 'annotations': annotations, 'mismatches': mismatches}))
