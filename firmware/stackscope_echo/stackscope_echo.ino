// stackscope echo server for the Arduino Uno: the stackscope TCP/IP stack (wasm/stack)
// answering ping, TCP echo (port 7) and discard (port 9) over SLIP at 57600 baud, as
// 10.0.7.2 (echo_config.h). The work is in echo_server.c; the stack's sources come into
// src/stack/ with `make firmware-sketch` (see ../README.md) before the IDE can build this.
#include "echo_server.h"

void setup()
{
    echo_setup();
}

void loop()
{
    echo_loop();
}
