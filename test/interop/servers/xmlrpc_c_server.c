/* An annotation server built on xmlrpc-c's Abyss server (Debian: libxmlrpc-core-c3-dev),
 * written the way a C team would: strstr() on the UTF-8 text the library hands over, so
 * offsets count bytes. Compiled by the test with gcc and `xmlrpc-c-config abyss-server`.
 * Prints "listening on URL" once its socket listens (bound here to a port the system picks).
 */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <xmlrpc-c/base.h>
#include <xmlrpc-c/server.h>
#include <xmlrpc-c/server_abyss.h>

/* Names to find, in UTF-8; \xF0\x9D\x9B\xBC is the mathematical alpha of "alpha-synuclein". */
static const char *const NAMES[] = {"BRCA1", "p53", "\xF0\x9D\x9B\xBC-synuclein", "M\xC3\xBCller"};

static xmlrpc_value *annotate(xmlrpc_env *const env, xmlrpc_value *const params, void *const serverInfo, void *const callInfo) {
    const char *text;
    xmlrpc_decompose_value(env, params, "(s)", &text);
    if (env->fault_occurred) return NULL;
    xmlrpc_value *mentions = xmlrpc_array_new(env);
    for (size_t i = 0; i < sizeof NAMES / sizeof NAMES[0]; i++) {
        for (const char *at = strstr(text, NAMES[i]); at != NULL; at = strstr(at + 1, NAMES[i])) {
            xmlrpc_value *item = xmlrpc_build_value(env, "{s:i,s:s,s:s}", "offset", (int)(at - text), "mention", NAMES[i], "type", "protein");
            xmlrpc_array_append_item(env, mentions, item);
            xmlrpc_DECREF(item);
        }
    }
    int relevant = strstr(text, "binds") != NULL || strstr(text, "interacts") != NULL;
    xmlrpc_value *answer = xmlrpc_build_value(env, "{s:A,s:(bd)}", "mentions", mentions, "interaction", (xmlrpc_bool)relevant, 0.75);
    xmlrpc_DECREF(mentions);
    free((void *)text);
    return answer;
}

static xmlrpc_value *crash(xmlrpc_env *const env, xmlrpc_value *const params, void *const serverInfo, void *const callInfo) {
    xmlrpc_env_set_fault(env, 500, "the tagger crashed");
    return NULL;
}

int main(void) {
    xmlrpc_env env;
    xmlrpc_env_init(&env);
    xmlrpc_registry *registry = xmlrpc_registry_new(&env);
    struct xmlrpc_method_info3 const annotateInfo = {.methodName = "Annotator.getAnnotation", .methodFunction = &annotate};
    struct xmlrpc_method_info3 const crashInfo = {.methodName = "Annotator.crash", .methodFunction = &crash};
    xmlrpc_registry_add_method3(&env, registry, &annotateInfo);
    xmlrpc_registry_add_method3(&env, registry, &crashInfo);

    int sock = socket(AF_INET, SOCK_STREAM, 0);
    struct sockaddr_in addr = {.sin_family = AF_INET, .sin_port = 0};
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t len = sizeof addr;
    if (sock < 0 || bind(sock, (struct sockaddr *)&addr, sizeof addr) != 0 || getsockname(sock, (struct sockaddr *)&addr, &len) != 0) {
        perror("cannot bind");
        return 1;
    }

    xmlrpc_server_abyss_parms parms;
    memset(&parms, 0, sizeof parms);
    parms.config_file_name = NULL;
    parms.registryP = registry;
    parms.log_file_name = NULL;
    parms.socket_bound = 1;
    parms.socket_handle = sock;
    printf("listening on http://127.0.0.1:%d/RPC2\n", ntohs(addr.sin_port));
    fflush(stdout);
    xmlrpc_server_abyss(&env, &parms, XMLRPC_APSIZE(socket_handle));
    if (env.fault_occurred) fprintf(stderr, "xmlrpc_server_abyss: %s\n", env.fault_string);
    return 1;
}
