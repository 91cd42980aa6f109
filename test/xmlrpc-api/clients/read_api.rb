# frozen_string_literal: true

# A BCMS read-API client on Ruby's xmlrpc gem (XMLRPC::Client): reads the annotations and
# the consensus of one article and prints what it got as JSON, with the XML-RPC type of
# every confidence, offset, rank and taxid as the library decoded it (Float -> double,
# Integer -> int).
#
# Usage: ruby read_api.rb '<json: {url, article, pmid, hidden, weighted, pair}>'
require 'json'
require 'set'
require 'xmlrpc/client'

args = JSON.parse(ARGV[0])
api = XMLRPC::Client.new2(args['url'])
types = Hash.new { |h, k| h[k] = Set.new }

type_name = lambda do |value|
  case value
  when true, false then 'boolean'
  when Integer then 'int'
  when Float then 'double'
  when String then 'string'
  else value.class.name
  end
end

collect = lambda do |value|
  case value
  when Hash
    value.each do |key, member|
      types[key] << type_name.call(member) if %w[confidence offset rank taxid].include?(key)
      types['interaction'] << member.map { |v| type_name.call(v) }.join(',') if key == 'interaction'
      collect.call(member)
    end
  when Array
    value.each { |item| collect.call(item) }
  end
  value
end

fault = lambda do |*call|
  ok, result = api.call2(*call)
  ok ? nil : [result.faultCode, result.faultString]
end

pmid = args['pmid']
out = {
  'methods' => api.call('system.listMethods'),
  'help' => api.call('system.methodHelp', 'Annotations.getAnnotation'),
  'signature' => api.call('system.methodSignature', 'Annotations.getAnnotation'),
  'serverList' => api.call('Annotations.getAnnotationServerList', pmid),
  'serverListById' => api.call('Annotations.getAnnotationServerList', args['article']),
  'resources' => api.call('Resources.getServerList'),
  'all' => collect.call(api.call('Annotations.getAnnotations', pmid)),
  'allById' => collect.call(api.call('Annotations.getAnnotations', args['article'])),
  'consensusMethods' => api.call('Consensus.getConsensusMethods'),
  'consensusMethod' => api.call('Consensus.getConsensusMethod', 'vote'),
  'consensus' => collect.call(api.call('Consensus.getConsensus', pmid)),
  'weighted' => collect.call(api.call('Consensus.getConsensus', args['article'], args['weighted'])),
  'pair' => collect.call(api.call('Consensus.getConsensus', pmid, args['pair']))
}
out['servers'] = out['serverList'].to_h { |sid| [sid.to_s, api.call('Resources.getServer', sid)] }
out['one'] = out['serverList'].to_h { |sid| [sid.to_s, collect.call(api.call('Annotations.getAnnotation', pmid, sid))] }
out['faults'] = {
  'unknownArticle' => fault.call('Annotations.getAnnotations', 'no-such-article'),
  'unknownPmid' => fault.call('Annotations.getAnnotations', 99_999_999),
  'challengeArticle' => fault.call('Annotations.getAnnotations', args['hidden']),
  'unknownMethod' => fault.call('Annotations.getEverything', pmid),
  'badParams' => fault.call('Annotations.getAnnotation', pmid),
  'badServer' => fault.call('Annotations.getAnnotation', pmid, 999),
  'unknownConsensusMethod' => fault.call('Consensus.getConsensus', pmid, { 'methods' => ['nope'] }),
  'badOption' => fault.call('Consensus.getConsensus', pmid, { 'colour' => 1 })
}
out['types'] = types.transform_values { |names| names.to_a.sort }
puts JSON.generate(out)
