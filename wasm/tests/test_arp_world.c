/* Ethernet II and ARP in the simulated world: the NFC paper's PTx answers ARP for the
 * appliance behind it (proxy ARP) and asks for the user on the appliance's behalf; the
 * capture of the Ethernet link shows the frames at the PTx's NIC (its own unpadded, the
 * user's padded to 60). Runs a scenario through the engine and reads its frame records. */
#include <string.h>

#include "arp.h"
#include "bytes.h"
#include "engine_run.h"
#include "eth.h"
#include "ip.h"
#include "trace_rec.h"
#include "unit.h"

#define APPLIANCE IP4(192, 168, 1, 102)
#define USER      IP4(192, 168, 1, 202)
#define MAX_SEEN  16

/* The first frames of the Ethernet link (link 1), as recorded. */
struct seen {
    uint32_t n;
    uint8_t dir[MAX_SEEN], node[MAX_SEEN];
    uint16_t len[MAX_SEEN];
    uint8_t bytes[MAX_SEEN][64];
};

static void collect(void *ctx, const uint8_t *t, uint32_t len)
{
    struct seen *s = ctx;
    uint32_t off = 0;
    while (off + TREC_HDR <= len) {
        const uint8_t *r = t + off;
        if (trec_rd16(r) == TREC_FRAME && trec_rd16(r + TREC_FRAME_OFF_LINK) == 1 &&
            s->n < MAX_SEEN) {
            uint16_t n = trec_rd16(r + TREC_FRAME_OFF_LEN);
            s->dir[s->n] = r[TREC_FRAME_OFF_DIR];
            s->node[s->n] = r[TREC_FRAME_OFF_NODE];
            s->len[s->n] = n;
            memcpy(s->bytes[s->n], r + TREC_FRAME_FIXED, n < 64 ? n : 64);
            s->n++;
        }
        off += trec_rd32(r + TREC_OFF_SIZE);
    }
}

/* appliance -NFC- ptx -Ethernet- user; `apps` is the JSON of the apps array. */
static int run_bridge(const char *apps, struct seen *s)
{
    static char json[2048];
    snprintf(json, sizeof json,
             "{\"version\":1,\"name\":\"t\",\"title\":\"t\",\"duration_ms\":8000,"
             "\"hosts\":[{\"name\":\"appliance\",\"addr\":\"192.168.1.102/24\"},"
             "{\"name\":\"user\",\"addr\":\"192.168.1.202/24\"}],"
             "\"bridges\":[{\"name\":\"ptx\"}],"
             "\"links\":[{\"name\":\"nfc\",\"type\":\"nfc\",\"a\":\"appliance\",\"b\":\"ptx\"},"
             "{\"name\":\"eth\",\"type\":\"ethernet\",\"a\":\"ptx\",\"b\":\"user\","
             "\"delay_us\":500}],"
             "\"apps\":%s}",
             apps);
    memset(s, 0, sizeof *s);
    return engine_run_scenario(json, collect, s);
}

static uint16_t arp_op(const uint8_t *f)
{
    return rd16(f + ETH_HDR_LEN + 6);
}

/* The user pings the appliance: it asks who has .102, and the PTx, node 2, answers with its
 * own MAC; the echo then crosses, and its reply comes back through the PTx. */
static void test_bridge_answers_for_the_appliance(void)
{
    struct seen s;
    uint8_t ptx_mac[ETH_ADDR_LEN];
    CHECK_EQ(
        run_bridge("[{\"type\":\"ping\",\"host\":\"user\",\"to\":\"appliance\",\"count\":1}]", &s),
        0);
    eth_mac_from_index(ptx_mac, 2);
    CHECK(s.n >= 4);
    CHECK_EQ(s.dir[0], 1); /* from the user */
    CHECK_EQ(rd16(s.bytes[0] + ETH_OFF_TYPE), ETH_TYPE_ARP);
    CHECK_EQ(arp_op(s.bytes[0]), ARP_OP_REQUEST);
    CHECK_EQ(rd32(s.bytes[0] + ETH_HDR_LEN + 24), APPLIANCE);
    CHECK_EQ(s.len[0], ETH_MIN_FRAME); /* received at the PTx: padded */
    CHECK_EQ(s.node[1], 2);            /* the PTx answers ... */
    CHECK_EQ(arp_op(s.bytes[1]), ARP_OP_REPLY);
    CHECK_EQ(rd32(s.bytes[1] + ETH_HDR_LEN + 14), APPLIANCE); /* ... for the appliance */
    CHECK_MEM(s.bytes[1] + ETH_HDR_LEN + 8, ptx_mac, ETH_ADDR_LEN);
    CHECK_EQ(s.len[1], ETH_HDR_LEN + ARP_PKT_LEN); /* sent by the PTx: as built, 42 */
    /* The echo request to the PTx's MAC, then the appliance's reply, forwarded. */
    CHECK_EQ(rd16(s.bytes[2] + ETH_OFF_TYPE), ETH_TYPE_IPV4);
    CHECK_MEM(s.bytes[2] + ETH_OFF_DST, ptx_mac, ETH_ADDR_LEN);
    CHECK_EQ(s.bytes[3][ETH_HDR_LEN + IP_HLEN], 0); /* ICMP echo reply */
    CHECK_EQ(s.node[3], 2);
}

/* The appliance opens a connection to the user: the PTx asks "Who has 192.168.1.202? Tell
 * 192.168.1.102" and forwards the SYN once the user has answered: the paper's 42, 60, 58. */
static void test_bridge_asks_on_the_appliances_behalf(void)
{
    struct seen s;
    CHECK_EQ(run_bridge("[{\"type\":\"tcp_discard_server\",\"host\":\"user\"},"
                        "{\"type\":\"tcp_echo_client\",\"host\":\"appliance\",\"to\":\"user\","
                        "\"port\":9,\"bytes\":10,\"send_only\":true}]",
                        &s),
             0);
    CHECK(s.n >= 4);
    CHECK_EQ(arp_op(s.bytes[0]), ARP_OP_REQUEST);
    CHECK_MEM(s.bytes[0] + ETH_OFF_DST, eth_broadcast, ETH_ADDR_LEN);
    CHECK_EQ(rd32(s.bytes[0] + ETH_HDR_LEN + 14), APPLIANCE); /* Tell .102 */
    CHECK_EQ(rd32(s.bytes[0] + ETH_HDR_LEN + 24), USER);      /* Who has .202? */
    CHECK_EQ(s.len[0], 42);
    CHECK_EQ(arp_op(s.bytes[1]), ARP_OP_REPLY);
    CHECK_EQ(s.len[1], 60);
    CHECK_EQ(s.len[2], 58); /* the SYN with its MSS option */
    CHECK_EQ(s.len[3], 60); /* the SYN-ACK, padded from 58 */
}

UNIT_MAIN(UNIT(test_bridge_answers_for_the_appliance),
          UNIT(test_bridge_asks_on_the_appliances_behalf))
