#!/usr/bin/perl
# An annotation server built on RPC::XML::Server (Debian: librpc-xml-perl), written the
# way a Perl team would: index() on the text as the library hands it over.
use strict;
use warnings;
use RPC::XML;
use RPC::XML::Server;

# Names to find; \x{1D6FC} is the mathematical alpha of "alpha-synuclein".
my @NAMES = ('BRCA1', 'p53', "\x{1D6FC}-synuclein", "M\x{FC}ller");

sub annotate {
    my ($server, $text) = @_;
    my @mentions;
    for my $name (@NAMES) {
        for (my $at = index($text, $name); $at >= 0; $at = index($text, $name, $at + 1)) {
            push @mentions, { offset => RPC::XML::int->new($at), mention => RPC::XML::string->new($name), type => 'protein' };
        }
    }
    my $relevant = ($text =~ /binds|interacts/) ? 1 : 0;
    return { mentions => \@mentions, interaction => [RPC::XML::boolean->new($relevant), RPC::XML::double->new(0.75)] };
}

my $server = RPC::XML::Server->new(host => '127.0.0.1', port => 0, path => '/RPC2', no_default => 1);
die "cannot start: $server\n" unless ref $server;
$server->add_method({ name => 'Annotator.getAnnotation', signature => ['struct string'], code => \&annotate });
$server->add_method({ name => 'Annotator.crash', signature => ['struct string'], code => sub { die "the tagger crashed\n" } });
$| = 1;
printf "listening on http://127.0.0.1:%d/RPC2\n", $server->port;
$server->server_loop;
