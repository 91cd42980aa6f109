#!/usr/bin/perl
# An annotation server built on Frontier::Daemon (Debian: libfrontier-rpc-perl), written
# the way a Perl team would: index() on the text as the library hands it over. Frontier
# writes strings into the answer as they are, and HTTP::Daemon dies on a character above
# U+00FF ("content must be bytes"), so the strings returned are encoded to UTF-8 first.
use strict;
use warnings;
use Encode qw(encode_utf8);
use Frontier::RPC2;
use Frontier::Daemon;

# Names to find; \x{1D6FC} is the mathematical alpha of "alpha-synuclein".
my @NAMES = ('BRCA1', 'p53', "\x{1D6FC}-synuclein", "M\x{FC}ller");

sub annotate {
    my ($text) = @_;
    my @mentions;
    for my $name (@NAMES) {
        for (my $at = index($text, $name); $at >= 0; $at = index($text, $name, $at + 1)) {
            push @mentions, { offset => Frontier::RPC2::Integer->new($at), mention => Frontier::RPC2::String->new(encode_utf8($name)), type => 'protein' };
        }
    }
    my $relevant = ($text =~ /binds|interacts/) ? 1 : 0;
    return { mentions => \@mentions, interaction => [Frontier::RPC2::Boolean->new($relevant), Frontier::RPC2::Double->new(0.75)] };
}

# Frontier::Daemon->new never returns: it serves in its constructor. The ready line is
# printed when it first waits for a connection, so the port (picked by the system) is known.
package ReadyDaemon;
our @ISA = ('Frontier::Daemon');
my $announced = 0;
sub accept {
    my $self = shift;
    printf "listening on http://127.0.0.1:%d/RPC2\n", $self->sockport unless $announced++;
    return $self->SUPER::accept(@_);
}

package main;
$| = 1;
ReadyDaemon->new(LocalAddr => '127.0.0.1', LocalPort => 0, ReuseAddr => 1, methods => { 'Annotator.getAnnotation' => \&annotate, 'Annotator.crash' => sub { die "the tagger crashed\n" } })
    or die "cannot start: $!\n";
