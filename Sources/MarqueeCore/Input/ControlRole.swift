/// What a control client may do, each role including the ones before it: `observe` reads (status,
/// events, observers, a screenshot returned in the reply: what anyone in the room can see),
/// `control` steers playback (transport, volume, seek, items, display power), `admin` changes what
/// the player is or writes (load, reload, quit, a screenshot written to disk). Each transport grants
/// one: the control socket gives `admin` to whoever may connect to it (its mode is the gate), MQTT
/// gives `control` unless `mqtt.allow` says otherwise.
public enum ControlRole: String, Sendable, CaseIterable, Comparable, Codable {
    case observe, control, admin

    private var rank: Int {
        switch self {
        case .observe: 0
        case .control: 1
        case .admin: 2
        }
    }

    public static func < (lhs: ControlRole, rhs: ControlRole) -> Bool { lhs.rank < rhs.rank }
}
