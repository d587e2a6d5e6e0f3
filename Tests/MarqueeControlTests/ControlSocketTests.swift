import Testing

/// Every control socket test with real sockets, one at a time: the descriptor count test compares
/// /proc/self/fd exactly, which only holds when no other socket test opens or closes fds meanwhile.
@Suite(.serialized) enum ControlSocketTests {}
