// The numbers of the capture file formats, in one place: pcapng's block types and
// byte-order magic (draft-ietf-opsawg-pcapng 4.1-4.3) and the link types of the frames
// (tcpdump.org's LINKTYPE_ registry), as wasm/sim/pcapng.c and pcap.c write them.

/** Section Header, Interface Description and Enhanced Packet Blocks */
export const BT_SHB = 0x0a0d0d0a;
export const BT_IDB = 0x00000001;
export const BT_EPB = 0x00000006;
/** the Section Header's byte-order magic, as written in the file's own order */
export const BYTE_ORDER_MAGIC = 0x1a2b3c4d;

/** raw IPv4: the packet begins with the IPv4 header (serial and NFC links) */
export const LINKTYPE_RAW = 101;
/** Ethernet II: the packet begins with the destination MAC address */
export const LINKTYPE_ETHERNET = 1;
