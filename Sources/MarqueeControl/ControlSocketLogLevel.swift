/// How much a control socket log line matters: `.info` for the ordinary life of connections,
/// `.warning` for a client cut off or refused, or a socket that stopped accepting.
public enum ControlSocketLogLevel: Sendable {
    case info, warning
}
