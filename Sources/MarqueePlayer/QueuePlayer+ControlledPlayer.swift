import MarqueeCore

/// The engine as the control transports see it.
extension QueuePlayer: ControlledPlayer {
    public func statusDocument() -> StatusDocument {
        status().document
    }
}
