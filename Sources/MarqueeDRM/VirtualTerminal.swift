import CLinux
import Glibc
import MarqueeCore

/// The text console on the VT the player shows on: switched to graphics mode while playing, so
/// neither its text nor its cursor is drawn over the picture, and put back to text on close.
///
/// It also takes part in VT switches (VT_PROCESS): before the kernel switches away, `onRelease`
/// runs (the output stops drawing and drops DRM master) and the switch is allowed; when the VT
/// comes back, `onAcquire` runs (master again, the picture back).
final class VirtualTerminal {
    let path: String
    private let fd: Int32
    private let previousMode: Int32
    private var isClosed = false
    /// The signals' source on the control-plane loop, and that loop.
    private var switchSignals: (source: EventSourceID, events: ControlPlaneLoop)?

    /// Real-time signals: SIGUSR1/2 may mean commands to the player, and the kernel queues these.
    static var releaseSignal: Int32 { marquee_sigrtmin() + 2 }
    static var acquireSignal: Int32 { marquee_sigrtmin() + 3 }
    /// Both, for a process that takes them through its loop to block from the start.
    static var signals: [Int32] { [releaseSignal, acquireSignal] }

    /// The VT to hide: the process's own terminal when that is a VT (a systemd unit with
    /// TTYPath=/dev/tty1 gives its user that one), else the VT on screen, found through /dev/tty0
    /// (root or the tty group). A failure means playing on without console control.
    static func active() -> Result<VirtualTerminal, SystemError> {
        if isatty(STDIN_FILENO) != 0, let name = ttyname(STDIN_FILENO).map({ String(cString: $0) }),
           name.hasPrefix("/dev/tty"), Int(name.dropFirst("/dev/tty".count)) != nil,
           let own = try? VirtualTerminal(path: name) {
            return .success(own)
        }
        let console = open("/dev/tty0", O_RDWR | O_CLOEXEC | O_NOCTTY)
        guard console >= 0 else { return .failure(SystemError(code: errno, operation: "open", path: "/dev/tty0")) }
        let number = marquee_vt_active_number(console)
        let code = errno
        Glibc.close(console)
        guard number > 0 else { return .failure(SystemError(code: code, operation: "VT_GETSTATE", path: "/dev/tty0")) }
        return Result { () throws(SystemError) in try VirtualTerminal(path: "/dev/tty\(number)") }
    }

    init(path: String) throws(SystemError) {
        fd = open(path, O_RDWR | O_CLOEXEC | O_NOCTTY)
        guard fd >= 0 else { throw SystemError(code: errno, operation: "open", path: path) }
        self.path = path
        previousMode = marquee_kd_get_mode(fd)
        guard marquee_kd_set_graphics(fd) == 0 else {
            let code = errno
            Glibc.close(fd)
            throw SystemError(code: code, operation: "KDSETMODE KD_GRAPHICS", path: path)
        }
    }

    /// Asks the kernel to signal VT switches instead of switching under us. Returns why not, if not.
    /// The signals arrive on `events`, the control-plane loop, through its signalfd.
    func handleSwitches(events: ControlPlaneLoop, onRelease: @escaping @Sendable () -> Void,
                        onAcquire: @escaping @Sendable () -> Void) -> SystemError? {
        let fd = self.fd
        let release = Self.releaseSignal
        let source = events.onSignals(Self.signals, named: "VT switches") { number in
            if number == release {
                onRelease()
                _ = marquee_vt_allow_release(fd)
            } else {
                _ = marquee_vt_acknowledge_acquire(fd)
                onAcquire()
            }
        }
        guard let source else { return SystemError(code: errno, operation: "signalfd", path: path) }
        switchSignals = (source, events)
        guard marquee_vt_set_process_mode(fd, Self.releaseSignal, Self.acquireSignal) == 0 else {
            return SystemError(code: errno, operation: "VT_SETMODE VT_PROCESS", path: path)
        }
        return nil
    }

    deinit {
        close()
    }

    /// Removes the signals' source (waiting for a switch being handled now).
    func stopHandlingSwitches() {
        guard let (source, events) = switchSignals else { return }
        switchSignals = nil
        events.remove(source, waiting: true)
    }

    /// Back to automatic switching and the mode the console had (text): the console shows again.
    func close() {
        guard !isClosed else { return }
        isClosed = true
        stopHandlingSwitches()
        _ = marquee_vt_set_auto_mode(fd)
        if previousMode != marquee_kd_graphics() { _ = marquee_kd_set_text(fd) }
        Glibc.close(fd)
    }
}
