/// Where a command came from, recorded with it in the events log (`source`) and the journal, so an
/// operator can tell a remote's key from a signal sent by a script.
public enum CommandSource: Sendable, Equatable, CustomStringConvertible {
    /// A key on an input device: the key's evdev name, the device's name and its node.
    case key(name: String, device: String, path: String)
    /// A Unix signal, by its name (`SIGTERM`, `SIGUSR1`).
    case signal(name: String)
    /// A change to the config file seen by its watch (the `reload` command without a SIGHUP).
    case file(path: String)
    /// A client of the control socket (`marquee ctl`, a script): its connection number and the
    /// peer's uid and pid as the kernel vouches for them (SO_PEERCRED).
    case control(client: Int, uid: UInt32, pid: Int32)
    /// A message on the MQTT command topic (`marquee/lobby/command`): MQTT names no sender, so
    /// the topic it came on is all there is to record.
    case mqtt(topic: String)
    /// A call from code: tests, or a program embedding the player.
    case application
    /// The player itself, resuming after a stop from a key had left the screen stopped for
    /// `input.stopTimeout` (`command play from stop timeout`).
    case stopTimeout
    /// The timetable (`schedule:` and `display.power`): a window's edge, or a wall-clock jump that
    /// crossed one (`command displayOff from schedule`).
    case schedule

    /// `key KEY_NEXTSONG on QEMU Virtio Keyboard (/dev/input/event1)`, `signal SIGTERM`,
    /// `file /etc/marquee/marquee.yaml`, `mqtt (marquee/lobby/command)`, `application`, `stop timeout`.
    public var description: String {
        switch self {
        case .key(let name, let device, let path): "key \(name) on \(device) (\(path))"
        case .signal(let name): "signal \(name)"
        case .file(let path): "file \(path)"
        case .control(let client, let uid, let pid): "control client \(client) (uid \(uid), pid \(pid))"
        case .mqtt(let topic): "mqtt (\(topic))"
        case .application: "application"
        case .stopTimeout: "stop timeout"
        case .schedule: "schedule"
        }
    }

    /// Whether a key on a keypad or remote sent it: anyone standing in front of the screen.
    public var isKey: Bool {
        if case .key = self { return true }
        return false
    }

    /// The kind alone, as the events log's `source` field writes it.
    public var kind: String {
        switch self {
        case .key: "key"
        case .signal: "signal"
        case .file: "file"
        case .control: "control"
        case .mqtt: "mqtt"
        case .application: "application"
        case .stopTimeout: "stopTimeout"
        case .schedule: "schedule"
        }
    }
}
