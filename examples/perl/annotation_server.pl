#!/usr/bin/env perl
# A sample annotation server for the metaserver, in Perl with RPC::XML
# (Debian/Ubuntu: apt-get install librpc-xml-perl; elsewhere: cpan RPC::XML).
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
#   meta   only if you opted in at registration: {article => id, tasks => [...]}
#
# and expects one struct with a key per task you answer (leave a key out to skip a task):
#
#   interaction     [relevant (boolean), confidence (double)]                 ACT
#   normalizations  [{dbid => UniProt accession, confidence, rank}, ...]      INT
#   pairs           [{a => accession, b => accession, confidence, rank}]      IPT
#   mentions        [{offset, mention, type, confidence}, ...]                MENTION
#   coref           standoff text: 'T' Exp expressions and 'R' Coref links     COREF
#   taxons          [{taxid => NCBI Taxonomy id, confidence, rank}, ...]      TX
#   topics          [{label => one of the challenge's labels, confidence}]    TOPIC
#   relations       [{type, arg1, arg2 => given entity ids, confidence, rank}] REL
#
# Offsets count Unicode code points of the text. Perl counts characters the same way once
# the text is a decoded (character) string; RPC::XML's parser hands it over decoded, and
# decoded_text() below makes sure of it. Never count in the UTF-8 bytes.
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
#            ["NCBIGene:672"] when the word is in %GENE_IDS (a few human genes).
#   COREF    each pronoun "it"/"its"/"they" is linked to the given protein ending nearest
#            before it (latest end, then latest start, then first listed).
#   TX       every species of the short list %SPECIES named as a word (after lower-casing
#            ASCII letters only: "Human", "mice", "Mus musculus"), its NCBI Taxonomy id
#            once, in order of first occurrence, rank i, confidence 1/(i+1).
#   TOPIC    each LitCovid topic of @TOPIC_STEMS whose stem occurs (ASCII, any case, also
#            inside words), in the list's order, confidence n/(n+1) for n occurrences.
# "Word" boundaries mean: the neighbouring character is not an ASCII letter or digit.
#
# Run:  perl annotation_server.pl --port 8000 [--host 127.0.0.1] [--method NAME]
use strict;
use warnings;
use Getopt::Long;
use RPC::XML;
use RPC::XML::Server;

my $ACCESSION = qr/(?:[OPQ][0-9][A-Z0-9]{3}[0-9]|[A-NR-Z][0-9](?:[A-Z][A-Z0-9]{2}[0-9]){1,2})/;
my $ACCESSION_WORD = qr/(?<![A-Za-z0-9])$ACCESSION(?![A-Za-z0-9])/;
my $TOKEN = qr/(?<![A-Za-z0-9])[A-Za-z][A-Za-z0-9]*/;
my $PRONOUN = qr/(?<![A-Za-z0-9])(?:[Ii]ts?|[Tt]hey)(?![A-Za-z0-9])/;
# Species names (lower case) and their NCBI Taxonomy ids: the same list in every sample.
my %SPECIES = (
    'homo sapiens' => 9606, 'human' => 9606, 'humans' => 9606,
    'mus musculus' => 10090, 'mouse' => 10090, 'mice' => 10090,
    'rattus norvegicus' => 10116, 'rat' => 10116, 'rats' => 10116,
    'saccharomyces cerevisiae' => 4932, 'yeast' => 4932,
    'escherichia coli' => 562,
    'danio rerio' => 7955, 'zebrafish' => 7955,
    'drosophila' => 7227,
    'arabidopsis' => 3702,
);
# Longer names first, so "homo sapiens" is one match.
my $SPECIES_NAMES = join '|', sort { length($b) <=> length($a) || $a cmp $b } keys %SPECIES;
my $SPECIES_WORD = qr/(?<![A-Za-z0-9])(?:$SPECIES_NAMES)(?![A-Za-z0-9])/;

# Explicit types: RPC::XML would otherwise guess them from how each value looks.
sub str { RPC::XML::string->new($_[0]) }
sub int32 { RPC::XML::int->new($_[0]) }
sub dbl { RPC::XML::double->new($_[0]) }

# Well-formed UniProt accessions, once each, in order of first occurrence.
sub find_accessions {
    my ($text) = @_;
    my (%seen, @accessions);
    while ($text =~ /$ACCESSION_WORD/g) {
        push @accessions, $& unless $seen{$&}++;
    }
    return @accessions;
}

sub classify {
    my ($text) = @_;
    # Case folding for ASCII letters only (tr keeps every other character as it is).
    (my $lower = $text) =~ tr/A-Z/a-z/;
    my $n = () = $lower =~ /interact|bind|complex/g;
    return $n > 0 ? [RPC::XML::boolean->new(1), dbl($n / ($n + 1))] : [RPC::XML::boolean->new(0), dbl(0.5)];
}

# The sample's dictionary of concept ids: a few human genes, NCBI Gene ids ("NS:accession").
my %GENE_IDS = (BRCA1 => 'NCBIGene:672', BRCA2 => 'NCBIGene:675', TP53 => 'NCBIGene:7157', MDM2 => 'NCBIGene:4193', CD4 => 'NCBIGene:920');

sub find_mentions {
    my ($text) = @_;
    my @mentions;
    while ($text =~ /$TOKEN/g) {
        my ($token, $offset) = ($&, $-[0]);    # $-[0]: the match start, in characters
        next unless $token =~ /[A-Z]/ && $token =~ /[0-9]/;
        next if $token =~ /\A$ACCESSION\z/;
        my $confidence = $token =~ /[a-z]/ ? 0.6 : 0.9;
        my %mention = (offset => int32($offset), mention => str($token), type => str('protein'), confidence => dbl($confidence));
        $mention{ids} = [str($GENE_IDS{$token})] if exists $GENE_IDS{$token};
        push @mentions, \%mention;
    }
    return \@mentions;
}

sub read_given {
    my ($given, $text) = @_;
    my @proteins;
    for my $line (split /\n/, $given, -1) {
        next unless $line =~ /\AT([0-9]+)\t[^\t ]+ ([0-9]+) ([0-9]+)\t/;
        my ($id, $start, $end) = ($1, $2, $3);
        next if $start >= $end || $end > length $text;
        next if substr($text, $start, $end - $start) =~ /[\t\r\n]/;
        push @proteins, { id => $id, start => $start, end => $end };
    }
    return @proteins;
}

sub coref_standoff {
    my ($text, $given) = @_;
    return '' if $given =~ /\A\s*\z/;
    my @proteins = read_given($given, $text);
    return '' unless @proteins;
    my $next_id = 0;
    for my $line (split /\n/, $given, -1) {
        $next_id = $1 if $line =~ /\AT([0-9]+)\t/ && $1 > $next_id;
    }
    $next_id += 1;
    my (@expressions, @links, %protein_exp);
    my $new_exp = sub {
        my ($start, $end) = @_;
        my $id = $next_id++;
        push @expressions, sprintf("T%d\tExp %d %d\t%s", $id, $start, $end, substr($text, $start, $end - $start));
        return $id;
    };
    while ($text =~ /$PRONOUN/g) {
        my ($start, $end) = ($-[0], $+[0]);
        my $best;
        for my $i (0 .. $#proteins) {
            my $p = $proteins[$i];
            next if $p->{end} > $start;
            if (!defined $best || $p->{end} > $proteins[$best]{end}
                || ($p->{end} == $proteins[$best]{end} && $p->{start} > $proteins[$best]{start})) {
                $best = $i;
            }
        }
        next unless defined $best;
        $protein_exp{$best} //= $new_exp->($proteins[$best]{start}, $proteins[$best]{end});
        my $anaphor = $new_exp->($start, $end);
        push @links, sprintf("R%d\tCoref Anaphora:T%d Antecedent:T%d [T%d]", @links + 1, $anaphor, $protein_exp{$best}, $proteins[$best]{id});
    }
    return @links ? join("\n", @expressions, @links) : '';
}

# Replace this with your tagger. Return only the keys of the tasks you answer.
# NCBI Taxonomy ids of the species named, once each, in order of first occurrence.
sub find_taxa {
    my ($text) = @_;
    (my $lower = $text) =~ tr/A-Z/a-z/;    # ASCII letters only
    my (%seen, @taxa);
    while ($lower =~ /$SPECIES_WORD/g) {
        my $taxid = $SPECIES{$&};
        push @taxa, $taxid unless $seen{$taxid}++;
    }
    return [map { { taxid => int32($taxa[$_]), rank => int32($_ + 1), confidence => dbl(1 / ($_ + 2)) } } 0 .. $#taxa];
}

# LitCovid's topics (BioCreative VII track 5) and the stem that names each.
my @TOPIC_STEMS = (
    ['Treatment', 'treat'], ['Diagnosis', 'diagnos'], ['Prevention', 'prevent'], ['Mechanism', 'mechanism'],
    ['Transmission', 'transmi'], ['Epidemic Forecasting', 'forecast'], ['Case Report', 'case report'],
);

# The topics whose stem occurs, with confidence n/(n+1) for n non-overlapping occurrences.
sub find_topics {
    my ($text) = @_;
    (my $lower = $text) =~ tr/A-Z/a-z/;    # ASCII letters only
    my @topics;
    for my $topic (@TOPIC_STEMS) {
        my ($label, $stem) = @$topic;
        my $n = () = $lower =~ /\Q$stem\E/g;
        push @topics, { label => str($label), confidence => dbl($n / ($n + 1)) } if $n > 0;
    }
    return \@topics;
}

# REL: a CHEMICAL and a later GENE* entity with "inhibit" or "activat" between them, no "." between.
sub find_relations {
    my ($text, $given) = @_;
    my @entities;
    for my $line (split /\n/, $given // '', -1) {
        next unless $line =~ /\A(T[0-9]+)\t([^\t ]+) ([0-9]+) ([0-9]+)\t/;
        next if $4 > length $text || $3 > $4;
        push @entities, { id => $1, type => $2, start => $3, end => $4 };
    }
    my @relations;
    for my $c (grep { $_->{type} eq 'CHEMICAL' } @entities) {
        for my $g (grep { $_->{type} =~ /\AGENE/ } @entities) {
            next if $g->{start} < $c->{end};
            (my $between = substr($text, $c->{end}, $g->{start} - $c->{end})) =~ tr/A-Z/a-z/;
            next if index($between, '.') >= 0;
            my $type = index($between, 'inhibit') >= 0 ? 'INHIBITOR' : index($between, 'activat') >= 0 ? 'ACTIVATOR' : undef;
            next unless defined $type;
            my $i = @relations;
            push @relations, { type => str($type), arg1 => str($c->{id}), arg2 => str($g->{id}), rank => int32($i + 1), confidence => dbl(1 / ($i + 2)) };
        }
    }
    return \@relations;
}

# CREL: the first two distinct ids the mentions carry; CID for a chemical and a disease, else Association.
sub find_concept_relations {
    my ($mentions) = @_;
    my $plain = sub { my ($v) = @_; ref $v ? $v->value : $v };
    my @concepts;
    for my $m (@$mentions) {
        for my $id (map { $plain->($_) } @{ $m->{ids} || [] }) {
            push @concepts, { id => $id, type => lc($plain->($m->{type}) // '') } unless grep { $_->{id} eq $id } @concepts;
        }
    }
    return [] if @concepts < 2;
    my ($a, $b) = @concepts;
    my ($chemical) = grep { $_->{type} eq 'chemical' } ($a, $b);
    my ($disease) = grep { $_->{type} eq 'disease' } ($a, $b);
    if ($chemical && $disease && $chemical != $disease) {
        return [{ type => str('CID'), concept1 => str($chemical->{id}), concept2 => str($disease->{id}), rank => int32(1), confidence => dbl(0.5) }];
    }
    return [{ type => str('Association'), concept1 => str($a->{id}), concept2 => str($b->{id}), novelty => str('Novel'), rank => int32(1), confidence => dbl(0.5) }];
}

sub annotate {
    my ($text, $given) = @_;
    my @accessions = find_accessions($text);
    my @normalizations = map {
        { dbid => str($accessions[$_]), dbname => str('UniProt'), rank => int32($_ + 1), confidence => dbl(1 / ($_ + 2)) }
    } 0 .. $#accessions;
    my @pairs = map {
        { a => str($accessions[$_]), b => str($accessions[$_ + 1]), rank => int32($_ + 1), confidence => dbl(1 / ($_ + 2)) }
    } 0 .. $#accessions - 1;
    return {
        interaction => classify($text),
        normalizations => \@normalizations,
        pairs => \@pairs,
        mentions => find_mentions($text),
        coref => str(coref_standoff($text, $given)),
        taxons => find_taxa($text),
        topics => find_topics($text),
        relations => find_relations($text, $given),
        concept_relations => find_concept_relations(find_mentions($text)),
    };
}

# A character string whatever the parser gave: offsets must count characters, not bytes.
sub decoded_text {
    my ($value) = @_;
    my $copy = $value;
    utf8::decode($copy) unless utf8::is_utf8($copy);
    return $copy;
}

sub main {
    my ($port, $host, $method) = (8000, '127.0.0.1', 'Annotator.getAnnotation');
    GetOptions('port=i' => \$port, 'host=s' => \$host, 'method=s' => \$method)
        or die "usage: $0 [--port N] [--host ADDRESS] [--method NAME]\n";

    # port 0 picks a free port (RPC::XML leaves the choice to the system when none is given).
    my $server = RPC::XML::Server->new(host => $host, ($port ? (port => $port) : ()));
    die "cannot listen on $host:$port: $server\n" unless ref $server;
    # One connection at a time: close it after each answer, so an idle keep-alive
    # connection of one client never holds up the next one.
    $server->response->header(Connection => 'close');
    $server->add_method({
        name => $method,
        signature => ['struct string', 'struct string string', 'struct string string struct'],
        code => sub {
            my ($srv, $text, $given, $meta) = @_;    # $meta ({article, tasks}) is not needed here
            return annotate(decoded_text($text), decoded_text($given // ''));
        },
    });
    # The ready line: scripts (and the meta-server's tests) wait for it before calling.
    $| = 1;
    printf "listening on http://%s:%d/ (method %s)\n", $host, $server->port, $method;
    $server->server_loop(signal => ['INT', 'TERM']);
}

main();
