import Testing

/// Every control socket test with real sockets, one at a time: the descriptor tests count the
/// sockets bound to their path in /proc/net/unix, and the 10,000-connection test's backlog and
/// timing are its own only when no other socket test runs beside it.
@Suite(.serialized) enum ControlSocketTests {}
