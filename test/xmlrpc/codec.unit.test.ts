import { describe, expect, it } from 'vitest';
import {
  assembleMethodCall,
  decodeMethodCall,
  decodeMethodResponse,
  encodeFault,
  encodeMethodCall,
  encodeMethodResponse,
  encodeStringParam,
  formatDouble,
  sanitizeXmlText,
  XmlRpcProtocolError,
  type XmlRpcValue,
} from '../../src/xmlrpc/codec.ts';

const wrap = (inner: string): string =>
  `<?xml version="1.0"?><methodResponse><params><param><value>${inner}</value></param></params></methodResponse>`;
const roundTrip = (value: XmlRpcValue): XmlRpcValue => {
  const decoded = decodeMethodResponse(encodeMethodResponse(value));
  if (decoded.kind !== 'value') throw new Error('expected a value');
  return decoded.value;
};
const protocolError = (xml: string | Buffer): XmlRpcProtocolError => {
  try {
    decodeMethodResponse(xml);
  } catch (err) {
    if (err instanceof XmlRpcProtocolError) return err;
    throw err;
  }
  throw new Error('expected an XmlRpcProtocolError');
};

describe('round trips', () => {
  it.each<[string, XmlRpcValue]>([
    ['int', 42],
    ['negative int', -2147483648],
    ['double', 0.1],
    ['tiny double', 1.5e-7],
    ['large integral number (not an i4)', 3e9],
    ['true', true],
    ['false', false],
    ['string with markup and CRLF', 'a < b && c > d\r\nline "two" \'q\''],
    ['empty string', ''],
    ['non-BMP string', '𝛼-synuclein 😀'],
    ['nil', null],
    ['date', new Date('2009-01-31T14:08:55Z')],
    ['base64', Buffer.from([0, 1, 2, 250, 255])],
    ['empty array', []],
    ['nested', { a: [1, [2, [3, { b: 'c' }]]], d: { e: { f: [true, null] } } }],
  ])('%s', (_name, value) => {
    expect(roundTrip(value)).toEqual(value);
  });

  it('writes doubles in decimal point notation, never with an exponent', () => {
    expect(formatDouble(1.5e-7)).toBe('0.00000015');
    expect(formatDouble(2.5e21)).toBe('2500000000000000000000.0');
    expect(formatDouble(3)).toBe('3.0');
    expect(encodeMethodResponse(1e-7)).toContain('<double>0.0000001</double>');
  });

  it('decodes structs without a prototype, so "__proto__" is plain data', () => {
    const value = decodeMethodResponse(wrap('<struct><member><name>__proto__</name><value><int>1</int></value></member></struct>'));
    expect(value.kind).toBe('value');
    const struct = (value as { value: Record<string, unknown> }).value;
    expect(Object.getPrototypeOf(struct)).toBeNull();
    expect(Object.keys(struct)).toEqual(['__proto__']);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('reads every integer spelling and untyped values as strings', () => {
    const xml = wrap(
      '<array><data><value><i4> 7 </i4></value><value><i8>9007199254740991</i8></value><value>plain text</value>' +
        '<value></value><value><string/></value><value><double>-1.5E2</double></value><value><dateTime.iso8601>20090131T14:08:55</dateTime.iso8601></value></data></array>',
    );
    expect(decodeMethodResponse(xml)).toEqual({
      kind: 'value',
      value: [7, 9007199254740991, 'plain text', '', '', -150, new Date('2009-01-31T14:08:55Z')],
    });
  });

  it('escapes a carriage return so offsets survive the XML line-end normalisation', () => {
    expect(encodeStringParam('a\rb')).toBe('<param><value><string>a&#13;b</string></value></param>');
  });
});

describe('calls and faults', () => {
  it('assembles a call from pre-encoded fragments exactly like encodeMethodCall', () => {
    const params = ['article text & more', 'T1\tProtein 0 4\tBRCA'];
    const assembled = assembleMethodCall('Annotator.getAnnotation', params.map(encodeStringParam));
    expect(assembled).toBe(encodeMethodCall('Annotator.getAnnotation', params));
    expect(decodeMethodCall(assembled)).toEqual({ method: 'Annotator.getAnnotation', params });
  });

  it('decodes a call without params and a trailing struct param', () => {
    expect(decodeMethodCall('<methodCall><methodName>x.y</methodName></methodCall>')).toEqual({ method: 'x.y', params: [] });
    const call = encodeMethodCall('m', ['t', '', { article: 'PMC1', tasks: ['ACT', 'INT'] }]);
    expect(decodeMethodCall(call).params[2]).toEqual({ article: 'PMC1', tasks: ['ACT', 'INT'] });
  });

  it('round-trips a fault', () => {
    expect(decodeMethodResponse(encodeFault(4, 'too <many> parameters'))).toEqual({
      kind: 'fault',
      code: 4,
      message: 'too <many> parameters',
    });
  });

  it('refuses a fault without faultCode', () => {
    const xml =
      '<methodResponse><fault><value><struct><member><name>faultString</name><value>x</value></member></struct></value></fault></methodResponse>';
    expect(protocolError(xml).message).toMatch(/faultCode/);
  });
});

describe('refused documents', () => {
  it.each<[string, string, RegExp]>([
    ['not XML', 'Internal Server Error', /not XML: it starts with "Internal Server Error"/],
    ['empty', '   ', /empty/],
    ['malformed', '<methodResponse><params></methodResponse>', /malformed XML at line 1, column \d+/],
    ['wrong root', '<methodCall><methodName>x</methodName></methodCall>', /root element is <methodCall>/],
    [
      'two params',
      '<methodResponse><params><param><value>a</value></param><param><value>b</value></param></params></methodResponse>',
      /exactly one <param>, found 2/,
    ],
    ['unknown type', wrap('<float>1</float>'), /<float> is not an XML-RPC type/],
    ['i4 above range', wrap('<i4>2147483648</i4>'), /does not fit a 32-bit signed integer/],
    ['int below range', wrap('<int>-2147483649</int>'), /does not fit a 32-bit signed integer/],
    ['fractional int', wrap('<int>1.5</int>'), /not an integer/],
    ['non-finite double', wrap('<double>1e999</double>'), /out of range/],
    ['NaN double', wrap('<double>NaN</double>'), /not a decimal number/],
    ['boolean word', wrap('<boolean>true</boolean>'), /0 or 1/],
    ['stray text next to a type', wrap('oops<int>1</int>'), /unexpected text "oops"/],
    [
      'duplicate member',
      wrap('<struct><member><name>a</name><value>1</value></member><member><name>a</name><value>2</value></member></struct>'),
      /twice/,
    ],
    ['undefined entity', wrap('<string>&nbsp;</string>'), /malformed XML.*undefined entity/],
    ['HTML page', '<!DOCTYPE html><html><body>hi</body></html>', /HTML page/],
  ])('%s', (_name, xml, message) => {
    const err = protocolError(xml);
    expect(err.name).toBe('XmlRpcProtocolError');
    expect(err.message).toMatch(message);
  });

  it('names the line, column and value path of a bad value', () => {
    const xml = wrap(
      '<struct><member><name>mentions</name><value><array><data><value><int>1</int></value>' +
        '<value><struct><member><name>offset</name><value><int>x</int></value></member></struct></value></data></array></value></member></struct>',
    );
    expect(protocolError(xml).message).toMatch(
      /^<int> holds "x", not an integer \(at line 1, column \d+: param 1 › struct member "mentions" › array item 1 › struct member "offset"\)$/,
    );
  });

  it('refuses entity expansion (billion laughs) without expanding anything', () => {
    const levels = Array.from({ length: 9 }, (_, i) => `<!ENTITY lol${i + 1} "${`&lol${i};`.repeat(10)}">`).join('');
    const xml = `<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol0 "lol">${levels}]><methodResponse><params><param><value><string>&lol9;</string></value></param></params></methodResponse>`;
    expect(protocolError(xml).message).toMatch(/DOCTYPE/);
  });

  it('refuses an external entity', () => {
    const xml =
      '<?xml version="1.0"?><!DOCTYPE r [<!ENTITY xxe SYSTEM "file:///etc/passwd">]><methodResponse><params><param><value>&xxe;</value></param></params></methodResponse>';
    expect(protocolError(xml).message).toMatch(/DOCTYPE/);
  });

  it('accepts 64 nesting levels and refuses 65 and absurd depths', () => {
    const nested = (levels: number): string => '<array><data><value>'.repeat(levels) + '1' + '</value></data></array>'.repeat(levels);
    expect(decodeMethodResponse(wrap(nested(63))).kind).toBe('value');
    expect(protocolError(wrap(nested(64))).message).toMatch(/nested deeper than 64/);
    expect(protocolError(wrap(nested(5000))).message).toMatch(
      /nested deeper than 64 levels \(at line 1, column \d+: param 1 › array item 0 › array item 0/,
    );
  });

  it('decodes UTF-8 bytes and refuses invalid UTF-8', () => {
    const bytes = Buffer.from(encodeMethodResponse('𝛼-synuclein'), 'utf8');
    expect(decodeMethodResponse(bytes)).toEqual({ kind: 'value', value: '𝛼-synuclein' });
    expect(
      protocolError(Buffer.concat([Buffer.from(wrap('<string>')), Buffer.from([0xff, 0xfe]), Buffer.from('</string>')])).message,
    ).toMatch(/UTF-8/);
  });
});

describe('sanitizeXmlText', () => {
  it('replaces each forbidden character by one space and keeps everything else', () => {
    const input = 'a\u0000b\u0008c\u000Bd\u000Ce\u001Ff\uFFFEg\uFFFFh\tj\nk\rl';
    expect(sanitizeXmlText(input)).toBe('a b c d e f g h\tj\nk\rl');
    expect(sanitizeXmlText(input)).toHaveLength(input.length);
  });

  it('replaces unpaired surrogates (one UTF-16 unit, one code point) but keeps a valid pair', () => {
    const input = 'x\uD835y\uDEFCz\uD835\uDEFC\uDEFC\uD835';
    expect(sanitizeXmlText(input)).toBe('x y z\uD835\uDEFC  ');
    expect(Array.from(sanitizeXmlText(input))).toHaveLength(Array.from(input).length);
    expect(sanitizeXmlText('𝛼 ok')).toBe('𝛼 ok');
  });

  it('is applied when strings are encoded, so what is sent decodes again', () => {
    const call = encodeMethodCall('m', ['bad\u0001char\uD800']);
    expect(decodeMethodCall(call).params).toEqual(['bad char ']);
  });
});

describe('hostile answers (security)', () => {
  it('refuses a parameter-entity external DTD and an undeclared entity reference without reading anything', () => {
    const pe =
      '<?xml version="1.0"?><!DOCTYPE r [<!ENTITY % ext SYSTEM "file:///etc/passwd"> %ext;]><methodResponse><params><param><value>x</value></param></params></methodResponse>';
    expect(protocolError(pe).message).toMatch(/DOCTYPE/);
    expect(() => decodeMethodResponse(wrap('<string>&undeclared;</string>'))).toThrow(XmlRpcProtocolError);
  });

  it('refuses numbers with thousands of digits quickly, without building big numbers', () => {
    const started = performance.now();
    expect(protocolError(wrap(`<int>${'9'.repeat(100_000)}</int>`)).message).toMatch(/32-bit|not an integer/);
    expect(protocolError(wrap(`<double>1${'0'.repeat(400)}</double>`)).message).toMatch(/out of range|not a decimal number/);
    expect(() => decodeMethodResponse(wrap(`<double>0.${'1'.repeat(10_000)}</double>`))).toThrow(XmlRpcProtocolError);
    expect(performance.now() - started).toBeLessThan(2000);
  });

  it('an unclosed nesting of 100 000 arrays is refused at depth 65, not by exhausting the stack', () => {
    expect(protocolError(wrap('<array><data><value>'.repeat(100_000))).message).toMatch(/nested deeper than 64/);
  });
});

describe('what other XML-RPC stacks write', () => {
  it('reads a surrogate pair of character references (Apache XML-RPC, Java) as one character', () => {
    expect(decodeMethodResponse(wrap('<string>&#55349;&#57084;-synuclein &#xD83D;&#xDE00;</string>'))).toEqual({
      kind: 'value',
      value: '𝛼-synuclein 😀',
    });
    expect(decodeMethodResponse(wrap('<string>a&#120572;b&amp;&#233;</string>'))).toEqual({ kind: 'value', value: 'a𝛼b&é' });
  });

  it('leaves references inside CDATA and comments as text', () => {
    expect(decodeMethodResponse(wrap('<string><![CDATA[&#55349;&#57084;]]><!-- &#55349; -->&#55349;&#57084;</string>'))).toEqual({
      kind: 'value',
      value: '&#55349;&#57084;𝛼',
    });
  });

  it('scans for surrogate references in linear time, even past unclosed CDATA sections', () => {
    const started = performance.now();
    expect(protocolError(wrap(`<string>&#233;${'<![CDATA[x'.repeat(200_000)}</string>`)).message).toMatch(/malformed XML/);
    expect(performance.now() - started).toBeLessThan(2000);
  });

  it.each<[string, string, RegExp]>([
    [
      'a high half alone',
      '<string>x&#55349;y</string>',
      /the character reference &#55349; \(at line 1, column \d+\) is a lone UTF-16 high surrogate \(U\+D835\)/,
    ],
    ['a low half alone', '<string>&#xDEFC;</string>', /&#xDEFC; .* lone UTF-16 low surrogate \(U\+DEFC\)/],
    ['two high halves', '<string>&#55349;&#55349;</string>', /&#55349; .*high surrogate.*a low half/],
    ['a high half, text, a low half', '<string>&#55349; &#57084;</string>', /lone UTF-16 high surrogate/],
  ])('refuses %s, naming the reference and what it means', (_name, inner, message) => {
    expect(protocolError(wrap(inner)).message).toMatch(message);
  });

  it('reads Apache’s namespaced numeric extensions wherever a number is expected', () => {
    const ns = 'xmlns:ex="http://ws.apache.org/xmlrpc/namespaces/extensions"';
    const xml =
      `<?xml version="1.0" encoding="UTF-8"?><methodResponse ${ns}><params><param><value><array><data>` +
      '<value><ex:i8>9007199254740991</ex:i8></value><value><ex:i1>-128</ex:i1></value><value><ex:i2>32767</ex:i2></value>' +
      '<value><ex:float>0.75</ex:float></value><value><ex:float>1.0E-4</ex:float></value><value><ex:biginteger>12</ex:biginteger></value>' +
      '<value><ex:bigdecimal>0.5</ex:bigdecimal></value><value><ex:nil/></value></data></array></value></param></params></methodResponse>';
    expect(decodeMethodResponse(xml)).toEqual({ kind: 'value', value: [9007199254740991, -128, 32767, 0.75, 0.0001, 12, 0.5, null] });
  });

  it.each<[string, string, RegExp]>([
    ['ex:i1 out of range', '<ex:i1>128</ex:i1>', /<ex:i1> "128" does not fit an 8-bit signed integer/],
    ['ex:i2 out of range', '<ex:i2>-32769</ex:i2>', /<ex:i2> "-32769" does not fit a 16-bit signed integer/],
    ['ex:i8 beyond 2^53', '<ex:i8>9223372036854775807</ex:i8>', /<ex:i8> .* beyond ±2\^53/],
    ['ex:float not a number', '<ex:float>NaN</ex:float>', /<ex:float> holds "NaN", not a decimal number/],
    ['an unknown extension', '<ex:serializable>rO0=</ex:serializable>', /<ex:serializable> is not an XML-RPC type/],
  ])('refuses %s', (_name, inner, message) => {
    expect(protocolError(wrap(inner)).message).toMatch(message);
  });

  it('decodes a fault whose code is a string, keeping the code as sent', () => {
    const xml =
      '<methodResponse><fault><value><struct><member><name>faultCode</name><value><string>Server</string></value></member>' +
      '<member><name>faultString</name><value><string>Illegal division by zero at x.pl line 3.\n</string></value></member></struct></value></fault></methodResponse>';
    expect(decodeMethodResponse(xml)).toEqual({ kind: 'fault', code: 'Server', message: 'Illegal division by zero at x.pl line 3.\n' });
  });

  it('decodes Latin-1 bytes when only the charset option (the HTTP header) names it', () => {
    const bytes = Buffer.from(wrap('<string>Ménière</string>').replace('<?xml version="1.0"?>', ''), 'latin1');
    expect(decodeMethodResponse(bytes, { charset: 'ISO-8859-1' })).toEqual({ kind: 'value', value: 'Ménière' });
    expect(protocolError(bytes).message).toMatch(/not valid UTF-8 \(and declares no other encoding\)/);
    expect(() => decodeMethodResponse(bytes, { charset: 'koi8-r' })).toThrow(
      /the Content-Type header names the encoding "koi8-r", which is not supported/,
    );
  });
});
