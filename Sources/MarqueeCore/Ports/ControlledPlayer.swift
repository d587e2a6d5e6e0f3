/// What a control transport (the socket, MQTT) may ask of a player: its status, whether it takes
/// an action now, the one command path, a seek with a reply, and a copy of the screen. The control
/// service is written against this, not the engine, so it is tested with a stand-in and its module
/// does not import the engine.
public protocol ControlledPlayer: AnyObject, Sendable {
    /// The playback part of `status` (the devices are the program's to add).
    func statusDocument() -> StatusDocument
    /// Why the player refuses `action` now (off the wall under sync, a skip on a live stream); nil: it takes it.
    func refusal(of action: ControlAction) -> String?
    /// Queues `action` on the command path, logged as coming from `source`.
    func send(_ action: ControlAction, from source: CommandSource)
    /// AVPlayer's seek; `completion` says true once the frame is on screen, false when superseded.
    func seek(to time: MediaTime, toleranceBefore: MediaTime, toleranceAfter: MediaTime, from source: CommandSource?,
              completion: @escaping @Sendable (Bool) -> Void)
    /// The picture on screen, copied between frames; nil when there is none to read.
    func screenshot(_ completion: @escaping @Sendable (Canvas?) -> Void)
}
