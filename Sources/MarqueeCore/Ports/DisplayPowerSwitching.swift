/// Something that turns the screen off and on: the KMS output (its CRTC inactive, mode and
/// buffers kept, so "on" shows the picture at once) or a TV over HDMI-CEC (standby; image view on
/// and active source). Called on the present thread: an implementation that talks to slow
/// hardware queues the work to a thread of its own and returns.
public protocol DisplayPowerSwitching: AnyObject {
    /// Throws a one-line error; the player logs it and goes on (the other switches still act).
    func setDisplayPower(on: Bool) throws
}
