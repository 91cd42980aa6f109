# An annotation server built on ruby-xmlrpc's XMLRPC::Server (Debian: ruby-xmlrpc, on
# WEBrick from ruby-webrick), written the way a Ruby team would: String#index on the text
# as the library hands it over.
require 'xmlrpc/server'

# Names to find; \u{1D6FC} is the mathematical alpha of "alpha-synuclein".
NAMES = ['BRCA1', 'p53', "\u{1D6FC}-synuclein", "M\u{FC}ller"].freeze

def annotate(text)
  mentions = []
  NAMES.each do |name|
    at = text.index(name)
    while at
      mentions << { 'offset' => at, 'mention' => name, 'type' => 'protein' }
      at = text.index(name, at + 1)
    end
  end
  { 'mentions' => mentions, 'interaction' => [text.match?(/binds|interacts/), 0.75] }
end

server = XMLRPC::Server.new(0, '127.0.0.1', 4, $stderr)
server.add_handler('Annotator.getAnnotation') { |text| annotate(text) }
server.add_handler('Annotator.crash') { |_text| raise 'the tagger crashed' }
$stdout.sync = true
puts "listening on http://127.0.0.1:#{server.port}/RPC2"
server.serve
