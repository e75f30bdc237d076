/* Drives hiredis' async API through its own libevent adapter (adapters/libevent.h):
   a SUBSCRIBE/PUBLISH/UNSUBSCRIBE round (channels kept in hiredis' dict), an error
   reply, and a connection refused. Run against redis-server on 127.0.0.1:6379. */
#include <stdio.h>
#include <string.h>
#include <signal.h>
#include <hiredis.h>
#include <async.h>
#include <adapters/libevent.h>

static redisAsyncContext *pub;

static void onMessage(redisAsyncContext *c, void *r, void *priv) {
    redisReply *reply = r;
    (void)priv;
    if (reply == NULL || reply->type != REDIS_REPLY_ARRAY) return;
    printf("sub: %s %s\n", reply->element[0]->str,
           reply->element[2]->type == REDIS_REPLY_STRING ? reply->element[2]->str : "-");
    if (strcmp(reply->element[0]->str, "subscribe") == 0)
        redisAsyncCommand(pub, NULL, NULL, "PUBLISH ch hello");
    else if (strcmp(reply->element[0]->str, "message") == 0)
        redisAsyncCommand(c, onMessage, NULL, "UNSUBSCRIBE ch");
    else if (strcmp(reply->element[0]->str, "unsubscribe") == 0) {
        redisAsyncDisconnect(c);
        redisAsyncDisconnect(pub);
    }
}

/* Subscribes to ch2 twice (the second replaces the dict entry), then frees the
   context while still subscribed (dictRelease with entries, onDisconnect on free). */
static int sub2_acks;
static void onSub2(redisAsyncContext *c, void *r, void *priv) {
    (void)r; (void)priv;
    if (++sub2_acks == 2) redisAsyncFree(c);
}

static void onError(redisAsyncContext *c, void *r, void *priv) {
    redisReply *reply = r;
    (void)c; (void)priv;
    if (reply) printf("error reply: %s\n", reply->str);
}

static void onConnect(const redisAsyncContext *c, int status) {
    printf("connect %s: %d\n", c->c.tcp.host ? c->c.tcp.host : "?", status);
}

static void onDisconnect(const redisAsyncContext *c, int status) {
    (void)c;
    printf("disconnect: %d\n", status);
}

int main(void) {
    signal(SIGPIPE, SIG_IGN);
    struct event_base *base = event_base_new();
    redisAsyncContext *sub = redisAsyncConnect("127.0.0.1", 6379);
    pub = redisAsyncConnect("127.0.0.1", 6379);
    redisAsyncContext *refused = redisAsyncConnect("127.0.0.1", 1);
    redisLibeventAttach(sub, base);
    redisLibeventAttach(pub, base);
    if (!refused->err) {
        redisLibeventAttach(refused, base);
        redisAsyncSetConnectCallback(refused, onConnect);
    }
    redisAsyncSetConnectCallback(sub, onConnect);
    redisAsyncSetDisconnectCallback(sub, onDisconnect);
    redisAsyncSetDisconnectCallback(pub, onDisconnect);
    redisAsyncContext *sub2 = redisAsyncConnect("127.0.0.1", 6379);
    redisLibeventAttach(sub2, base);
    redisAsyncSetDisconnectCallback(sub2, onDisconnect);
    redisAsyncCommand(sub2, onSub2, NULL, "SUBSCRIBE ch2");
    redisAsyncCommand(sub2, onSub2, NULL, "SUBSCRIBE ch2");
    redisAsyncCommand(pub, onError, NULL, "NOSUCHCOMMAND");
    redisAsyncCommand(sub, onMessage, NULL, "SUBSCRIBE ch");
    event_base_dispatch(base);
    return 0;
}
