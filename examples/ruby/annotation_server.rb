#!/usr/bin/env ruby
# frozen_string_literal: true

# A sample annotation server for the metaserver, in Ruby with the xmlrpc gem on WEBrick
# (Debian/Ubuntu: apt-get install ruby-xmlrpc ruby-webrick; elsewhere: gem install
# xmlrpc webrick — both left Ruby's standard library in Ruby 2.4 and 3.0).
#
# Copy this file and replace the body of annotate() with your own tagger. Everything
# else -- the XML-RPC plumbing, the method name, the answer layout -- is what the
# meta-server expects, so keep it.
#
# The meta-server calls one method (default name Annotator.getAnnotation) per article:
#
#     getAnnotation(text [, given [, meta]]) -> struct
#
#   text   the article as plain text (title, abstract, section headers and paragraphs)
#   given  only for servers registered for COREF: the given proteins as standoff lines
#          "T4<TAB>Protein 275 278<TAB>p65" ('' when none)
#   meta   only if you opted in at registration: {'article' => id, 'tasks' => [...]}
#
# and expects one struct with a key per task you answer (leave a key out to skip a task):
#
#   interaction     [relevant (true/false), confidence (Float)]                  ACT
#   normalizations  [{'dbid' => UniProt accession, 'confidence', 'rank'}, ...]   INT
#   pairs           [{'a' => accession, 'b' => accession, 'confidence', 'rank'}] IPT
#   mentions        [{'offset', 'mention', 'type', 'confidence'}, ...]           MENTION
#   coref           standoff text: 'T' Exp expressions and 'R' Coref links        COREF
#   taxons          [{'taxid' => NCBI Taxonomy id, 'confidence', 'rank'}, ...]   TX
#   topics          [{'label' => one of the challenge's labels, 'confidence'}]   TOPIC
#   relations       [{'type', 'arg1', 'arg2' => given entity ids, 'confidence', 'rank'}]  REL
#
# Offsets count Unicode code points of the text. A Ruby string encoded as UTF-8 counts
# characters that way (String#[], MatchData#begin); utf8() below makes sure the text is
# UTF-8, never bytes. Confidences must be Floats (1.0 / (i + 2), not 1 / (i + 2), which
# is integer division in Ruby).
#
# The rules below are deliberately simple and the same as those of the Python sample
# (examples/python/annotation_server.py) and the meta-server's built-in TypeScript
# sample; the meta-server's tests check that all of them give identical answers:
#
#   ACT      relevant when "interact", "bind" or "complex" occurs (ASCII, any case, also
#            inside words); confidence n/(n+1) for n occurrences, else [false, 0.5].
#   INT      every UniProt accession standing as a word, once, in order of first
#            occurrence, rank i, confidence 1/(i+1).
#   IPT      each two consecutive accessions of that list, rank i, confidence 1/(i+1).
#   MENTION  every word starting with an ASCII letter, made of ASCII letters and digits,
#            with an uppercase letter and a digit, that is not an accession ("BRCA1");
#            confidence 0.9 without lowercase letters, else 0.6; type "protein"; ids
#            ["NCBIGene:672"] when the word is in GENE_IDS (a few human genes).
#   COREF    each pronoun "it"/"its"/"they" is linked to the given protein ending nearest
#            before it (latest end, then latest start, then first listed).
#   TX       every species of the short list SPECIES named as a word (after lower-casing
#            ASCII letters only: "Human", "mice", "Mus musculus"), its NCBI Taxonomy id
#            once, in order of first occurrence, rank i, confidence 1/(i+1).
#   TOPIC    each LitCovid topic of TOPIC_STEMS whose stem occurs (ASCII, any case, also
#            inside words), in the list's order, confidence n/(n+1) for n occurrences.
# "Word" boundaries mean: the neighbouring character is not an ASCII letter or digit.
#
# Run:  ruby annotation_server.rb --port 8000 [--host 127.0.0.1] [--method NAME]
require 'optparse'
require 'webrick'
require 'xmlrpc/server'

ACCESSION = '(?:[OPQ][0-9][A-Z0-9]{3}[0-9]|[A-NR-Z][0-9](?:[A-Z][A-Z0-9]{2}[0-9]){1,2})'
ACCESSION_WORD = /(?<![A-Za-z0-9])#{ACCESSION}(?![A-Za-z0-9])/.freeze
ACCESSION_ONLY = /\A#{ACCESSION}\z/.freeze
TOKEN = /(?<![A-Za-z0-9])[A-Za-z][A-Za-z0-9]*/.freeze
PRONOUN = /(?<![A-Za-z0-9])(?:[Ii]ts?|[Tt]hey)(?![A-Za-z0-9])/.freeze
GIVEN_LINE = /\AT([0-9]+)\t[^\t ]+ ([0-9]+) ([0-9]+)\t/.freeze
GIVEN_ID = /\AT([0-9]+)\t/.freeze
GIVEN_ENTITY = /\A(T[0-9]+)\t([^\t ]+) ([0-9]+) ([0-9]+)\t/.freeze
# Species names (lower case) and their NCBI Taxonomy ids: the same list in every sample.
SPECIES = {
  'homo sapiens' => 9606, 'human' => 9606, 'humans' => 9606,
  'mus musculus' => 10090, 'mouse' => 10090, 'mice' => 10090,
  'rattus norvegicus' => 10116, 'rat' => 10116, 'rats' => 10116,
  'saccharomyces cerevisiae' => 4932, 'yeast' => 4932,
  'escherichia coli' => 562,
  'danio rerio' => 7955, 'zebrafish' => 7955,
  'drosophila' => 7227,
  'arabidopsis' => 3702
}.freeze
# Longer names first, so "homo sapiens" is one match.
SPECIES_WORD = /(?<![A-Za-z0-9])(?:#{SPECIES.keys.sort_by { |name| [-name.length, name] }.join('|')})(?![A-Za-z0-9])/.freeze

# Every match of a pattern with its MatchData (offsets in characters).
def matches(text, pattern)
  text.to_enum(:scan, pattern).map { Regexp.last_match }
end

# Well-formed UniProt accessions, once each, in order of first occurrence.
def find_accessions(text)
  matches(text, ACCESSION_WORD).map { |m| m[0] }.uniq
end

def classify(text)
  # Case folding for ASCII letters only (Ruby's /i would fold other letters too).
  n = text.tr('A-Z', 'a-z').scan(/interact|bind|complex/).length
  n.positive? ? [true, n.to_f / (n + 1)] : [false, 0.5]
end

# The sample's dictionary of concept ids: a few human genes, NCBI Gene ids ("NS:accession").
GENE_IDS = { 'BRCA1' => 'NCBIGene:672', 'BRCA2' => 'NCBIGene:675', 'TP53' => 'NCBIGene:7157', 'MDM2' => 'NCBIGene:4193',
             'CD4' => 'NCBIGene:920' }.freeze

def find_mentions(text)
  matches(text, TOKEN).filter_map do |m|
    token = m[0]
    next unless token.match?(/[A-Z]/) && token.match?(/[0-9]/)
    next if token.match?(ACCESSION_ONLY)

    confidence = token.match?(/[a-z]/) ? 0.6 : 0.9
    mention = { 'offset' => m.begin(0), 'mention' => token, 'type' => 'protein', 'confidence' => confidence }
    mention['ids'] = [GENE_IDS[token]] if GENE_IDS.key?(token)
    mention
  end
end

def read_given(given, text)
  given.split("\n", -1).filter_map do |line|
    m = GIVEN_LINE.match(line)
    next unless m

    id, start, stop = m[1].to_i, m[2].to_i, m[3].to_i
    next if start >= stop || stop > text.length || text[start...stop].match?(/[\t\r\n]/)

    { id: id, start: start, end: stop }
  end
end

def coref_standoff(text, given)
  return '' if given.strip.empty?

  proteins = read_given(given, text)
  return '' if proteins.empty?

  next_id = given.split("\n", -1).map { |line| GIVEN_ID.match(line)&.[](1).to_i }.max + 1
  expressions = []
  links = []
  protein_exp = {} # index in proteins -> id of its Exp expression
  new_exp = lambda do |start, stop|
    id = next_id
    next_id += 1
    expressions << "T#{id}\tExp #{start} #{stop}\t#{text[start...stop]}"
    id
  end
  matches(text, PRONOUN).each do |m|
    start = m.begin(0)
    best = nil
    proteins.each_with_index do |p, i|
      next if p[:end] > start

      b = best && proteins[best]
      best = i if b.nil? || p[:end] > b[:end] || (p[:end] == b[:end] && p[:start] > b[:start])
    end
    next if best.nil?

    protein_exp[best] ||= new_exp.call(proteins[best][:start], proteins[best][:end])
    anaphor = new_exp.call(start, m.end(0))
    links << "R#{links.length + 1}\tCoref Anaphora:T#{anaphor} Antecedent:T#{protein_exp[best]} [T#{proteins[best][:id]}]"
  end
  links.empty? ? '' : (expressions + links).join("\n")
end

# Replace this with your tagger. Return only the keys of the tasks you answer.
# NCBI Taxonomy ids of the species named, once each, in order of first occurrence.
def find_taxa(text)
  taxa = text.tr('A-Z', 'a-z').scan(SPECIES_WORD).map { |name| SPECIES[name] }.uniq
  taxa.each_with_index.map { |taxid, i| { 'taxid' => taxid, 'rank' => i + 1, 'confidence' => 1.0 / (i + 2) } }
end

# LitCovid's topics (BioCreative VII track 5) and the stem that names each.
TOPIC_STEMS = [
  ['Treatment', 'treat'], ['Diagnosis', 'diagnos'], ['Prevention', 'prevent'], ['Mechanism', 'mechanism'],
  ['Transmission', 'transmi'], ['Epidemic Forecasting', 'forecast'], ['Case Report', 'case report']
].freeze

# The topics whose stem occurs, with confidence n/(n+1) for n non-overlapping occurrences.
def find_topics(text)
  lower = text.tr('A-Z', 'a-z')
  TOPIC_STEMS.filter_map do |label, stem|
    n = lower.scan(stem).length
    { 'label' => label, 'confidence' => n.to_f / (n + 1) } if n.positive?
  end
end

# REL: a CHEMICAL and a later GENE* entity with "inhibit" or "activat" between them, no "." between.
def find_relations(text, given)
  entities = given.split("\n", -1).filter_map do |line|
    m = GIVEN_ENTITY.match(line)
    next unless m && m[4].to_i <= text.length && m[3].to_i <= m[4].to_i

    { id: m[1], type: m[2], start: m[3].to_i, end: m[4].to_i }
  end
  relations = []
  entities.select { |c| c[:type] == 'CHEMICAL' }.each do |c|
    entities.select { |g| g[:type].start_with?('GENE') }.each do |g|
      next if g[:start] < c[:end]

      between = text[c[:end]...g[:start]].tr('A-Z', 'a-z')
      next if between.include?('.')

      type = if between.include?('inhibit') then 'INHIBITOR' elsif between.include?('activat') then 'ACTIVATOR' end
      next unless type

      i = relations.length
      relations << { 'type' => type, 'arg1' => c[:id], 'arg2' => g[:id], 'rank' => i + 1, 'confidence' => 1.0 / (i + 2) }
    end
  end
  relations
end

# CREL: the first two distinct ids the mentions carry; CID for a chemical and a disease, else Association.
def find_concept_relations(mentions)
  concepts = []
  mentions.each do |m|
    (m['ids'] || []).each do |id|
      concepts << { 'id' => id, 'type' => (m['type'] || '').downcase } unless concepts.any? { |c| c['id'] == id }
    end
  end
  return [] if concepts.length < 2

  a, b = concepts
  chemical = [a, b].find { |c| c['type'] == 'chemical' }
  disease = [a, b].find { |c| c['type'] == 'disease' }
  if chemical && disease && !chemical.equal?(disease)
    return [{ 'type' => 'CID', 'concept1' => chemical['id'], 'concept2' => disease['id'], 'rank' => 1, 'confidence' => 0.5 }]
  end

  [{ 'type' => 'Association', 'concept1' => a['id'], 'concept2' => b['id'], 'novelty' => 'Novel', 'rank' => 1, 'confidence' => 0.5 }]
end

def annotate(text, given = '')
  accessions = find_accessions(text)
  {
    'interaction' => classify(text),
    'normalizations' => accessions.each_with_index.map do |acc, i|
      { 'dbid' => acc, 'dbname' => 'UniProt', 'rank' => i + 1, 'confidence' => 1.0 / (i + 2) }
    end,
    'pairs' => accessions.each_cons(2).each_with_index.map do |(a, b), i|
      { 'a' => a, 'b' => b, 'rank' => i + 1, 'confidence' => 1.0 / (i + 2) }
    end,
    'mentions' => find_mentions(text),
    'coref' => coref_standoff(text, given),
    'taxons' => find_taxa(text),
    'topics' => find_topics(text),
    'relations' => find_relations(text, given),
    'concept_relations' => find_concept_relations(find_mentions(text))
  }
end

# A UTF-8 string whatever the parser gave: offsets must count characters, not bytes.
def utf8(value)
  value.encoding == Encoding::UTF_8 ? value : value.dup.force_encoding(Encoding::UTF_8)
end

def main
  options = { port: 8000, host: '127.0.0.1', method: 'Annotator.getAnnotation' }
  OptionParser.new do |o|
    o.banner = 'usage: ruby annotation_server.rb [--port N] [--host ADDRESS] [--method NAME]'
    o.on('--port N', Integer, 'TCP port (0 picks a free one; default 8000)') { |v| options[:port] = v }
    o.on('--host ADDRESS', 'address to listen on (default 127.0.0.1)') { |v| options[:host] = v }
    o.on('--method NAME', 'method name registered with the meta-server') { |v| options[:method] = v }
  end.parse!

  servlet = XMLRPC::WEBrickServlet.new
  # A splat, because a block's optional parameters do not count in its arity, which the
  # servlet compares with the number of parameters sent.
  servlet.add_handler(options[:method]) do |text, *rest|
    given, _meta = rest # meta ({'article', 'tasks'}) is not needed here
    unless text.is_a?(String) && rest.length <= 2 && (given.nil? || given.is_a?(String))
      raise XMLRPC::FaultException.new(3, "#{options[:method]} takes (text: string [, given: string [, meta: struct]])")
    end

    annotate(utf8(text), utf8(given || ''))
  end
  # Request logging off (warnings still go to stderr); the servlet answers on any path.
  http = WEBrick::HTTPServer.new(Port: options[:port], BindAddress: options[:host],
                                 Logger: WEBrick::Log.new($stderr, WEBrick::Log::WARN), AccessLog: [])
  http.mount('/', servlet)
  %w[INT TERM].each { |signal| trap(signal) { http.shutdown } }
  # The ready line: scripts (and the meta-server's tests) wait for it before calling.
  $stdout.sync = true
  puts "listening on http://#{options[:host]}:#{http.config[:Port]}/ (method #{options[:method]})"
  http.start
end

main if $PROGRAM_NAME == __FILE__
