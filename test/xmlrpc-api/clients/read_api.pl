#!/usr/bin/env perl
# A BCMS read-API client on Perl's RPC::XML::Client: reads the annotations and the
# consensus of one article and prints what it got as JSON, with the XML-RPC type of every
# confidence, offset, rank and taxid as the library decoded it (RPC::XML keeps each
# value's wire type: RPC::XML::double, RPC::XML::int, …).
#
# Usage: perl read_api.pl '<json: {url, article, pmid, hidden, weighted, pair}>'
use strict;
use warnings;
use JSON::PP;
use RPC::XML;
use RPC::XML::Client;

my $args = JSON::PP->new->decode($ARGV[0]);
my $api = RPC::XML::Client->new($args->{url});
my $text = JSON::PP->new->ascii->allow_nonref;
my %types;

# The RPC::XML value as JSON text: doubles with 17 significant digits (Perl prints 15 by
# default, which would change them), booleans as true/false, and the types collected.
sub json {
    my ($value) = @_;
    my $type = $value->type;
    $type = 'int' if $type eq 'i4';
    if ($type eq 'struct') {
        my @members;
        for my $key (sort keys %{$value}) {
            my $member = $value->{$key};
            if ($key =~ /\A(?:confidence|offset|rank|taxid)\z/) {
                (my $t = $member->type) =~ s/\Ai4\z/int/;
                $types{$key}{$t} = 1;
            }
            if ($key eq 'interaction') {
                $types{interaction}{ join ',', map { (my $t = $_->type) =~ s/\Ai4\z/int/; $t } @{$member} } = 1;
            }
            push @members, $text->encode($key) . ':' . json($member);
        }
        return '{' . join(',', @members) . '}';
    }
    return '[' . join(',', map { json($_) } @{$value}) . ']' if $type eq 'array';
    return $value->value ? 'true' : 'false' if $type eq 'boolean';
    return sprintf('%.17g', $value->value) if $type eq 'double';
    return $value->value if $type eq 'int';
    return $text->encode($value->value);
}

sub call {
    my ($method, @params) = @_;
    my $response = $api->send_request($method, @params);
    die "$method: $response\n" unless ref $response;
    die "$method: fault " . $response->code . ': ' . $response->string . "\n" if $response->is_fault;
    return $response;
}

sub fault {
    my ($method, @params) = @_;
    my $response = $api->send_request($method, @params);
    die "$method: $response\n" unless ref $response;
    return 'null' unless $response->is_fault;
    return '[' . $response->code . ',' . $text->encode($response->string) . ']';
}

my $pmid = RPC::XML::int->new($args->{pmid});
my $article = RPC::XML::string->new($args->{article});
my $server_list = call('Annotations.getAnnotationServerList', $pmid);
my @ids = map { $_->value } @{$server_list};
my %out = (
    methods => json(call('system.listMethods')),
    help => json(call('system.methodHelp', 'Annotations.getAnnotation')),
    signature => json(call('system.methodSignature', 'Annotations.getAnnotation')),
    serverList => json($server_list),
    serverListById => json(call('Annotations.getAnnotationServerList', $article)),
    resources => json(call('Resources.getServerList')),
    all => json(call('Annotations.getAnnotations', $pmid)),
    allById => json(call('Annotations.getAnnotations', $article)),
    consensusMethods => json(call('Consensus.getConsensusMethods')),
    consensusMethod => json(call('Consensus.getConsensusMethod', 'vote')),
    consensus => json(call('Consensus.getConsensus', $pmid)),
    weighted => json(call('Consensus.getConsensus', $article, RPC::XML::struct->new($args->{weighted}))),
    pair => json(call('Consensus.getConsensus', $pmid, RPC::XML::struct->new($args->{pair}))),
    servers => '{' . join(',', map { qq("$_":) . json(call('Resources.getServer', RPC::XML::int->new($_))) } @ids) . '}',
    one => '{' . join(',', map { qq("$_":) . json(call('Annotations.getAnnotation', $pmid, RPC::XML::int->new($_))) } @ids) . '}',
    faults => '{' . join(',',
        '"unknownArticle":' . fault('Annotations.getAnnotations', RPC::XML::string->new('no-such-article')),
        '"unknownPmid":' . fault('Annotations.getAnnotations', RPC::XML::int->new(99999999)),
        '"challengeArticle":' . fault('Annotations.getAnnotations', RPC::XML::string->new($args->{hidden})),
        '"unknownMethod":' . fault('Annotations.getEverything', $pmid),
        '"badParams":' . fault('Annotations.getAnnotation', $pmid),
        '"badServer":' . fault('Annotations.getAnnotation', $pmid, RPC::XML::int->new(999)),
        '"unknownConsensusMethod":' . fault('Consensus.getConsensus', $pmid, RPC::XML::struct->new({ methods => ['nope'] })),
        '"badOption":' . fault('Consensus.getConsensus', $pmid, RPC::XML::struct->new({ colour => 1 })),
    ) . '}',
);
$out{types} = $text->canonical->encode({ map { $_ => [sort keys %{ $types{$_} }] } keys %types });
print '{' . join(',', map { $text->encode($_) . ':' . $out{$_} } sort keys %out) . "}\n";
