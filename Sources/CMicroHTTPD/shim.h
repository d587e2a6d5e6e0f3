#ifndef MARQUEE_CMICROHTTPD_SHIM_H
#define MARQUEE_CMICROHTTPD_SHIM_H

#include <stdint.h>
#include <sys/types.h>
#include <sys/socket.h>
#include <microhttpd.h>

// MHD_start_daemon is variadic, which Swift cannot call: this wrapper passes the options the
// metrics server uses. The daemon takes a socket the caller bound and listens on (so a bad or
// busy address is the caller's errno, said plainly), serves on one internal thread polled with
// epoll, and bounds what a client can hold: `connectionLimit` connections at once, each closed
// after `timeoutSeconds` without traffic.
static inline struct MHD_Daemon *marquee_mhd_start(int listenSocket, MHD_AccessHandlerCallback handler, void *context,
                                                  unsigned int connectionLimit, unsigned int timeoutSeconds) {
    return MHD_start_daemon(MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_EPOLL,
                            0, NULL, NULL, handler, context,
                            MHD_OPTION_LISTEN_SOCKET, (MHD_socket)listenSocket,
                            MHD_OPTION_CONNECTION_LIMIT, connectionLimit,
                            MHD_OPTION_CONNECTION_TIMEOUT, timeoutSeconds,
                            MHD_OPTION_END);
}

#endif
