#!/usr/bin/perl
# An annotation server built on XMLRPC::Lite's daemon, XMLRPC::Transport::HTTP::Daemon
# (Debian: libxmlrpc-lite-perl, on libsoap-lite-perl), written the way a Perl team would:
# index() on the text as the library hands it over. The method Annotator.getAnnotation is
# dispatched to Annotator::getAnnotation, the class name coming first.
use strict;
use warnings;
use XMLRPC::Lite;
use XMLRPC::Transport::HTTP;

package Annotator;

# Names to find; \x{1D6FC} is the mathematical alpha of "alpha-synuclein".
my @NAMES = ('BRCA1', 'p53', "\x{1D6FC}-synuclein", "M\x{FC}ller");

sub getAnnotation {
    my ($class, $text) = @_;
    my @mentions;
    for my $name (@NAMES) {
        for (my $at = index($text, $name); $at >= 0; $at = index($text, $name, $at + 1)) {
            push @mentions, { offset => XMLRPC::Data->type(int => $at), mention => XMLRPC::Data->type(string => $name), type => 'protein' };
        }
    }
    my $relevant = ($text =~ /binds|interacts/) ? 1 : 0;
    return { mentions => \@mentions, interaction => [XMLRPC::Data->type(boolean => $relevant), XMLRPC::Data->type(double => 0.75)] };
}

sub crash { die "the tagger crashed\n" }

package main;
$| = 1;
my $daemon = XMLRPC::Transport::HTTP::Daemon->new(LocalAddr => '127.0.0.1', LocalPort => 0, ReuseAddr => 1)
    or die "cannot start: $!\n";
$daemon->dispatch_to('Annotator');
printf "listening on http://127.0.0.1:%d/RPC2\n", $daemon->sockport;
$daemon->handle;
