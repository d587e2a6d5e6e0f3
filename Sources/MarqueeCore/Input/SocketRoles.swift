/// `control.roles`: the role of each control-socket client, decided from the kernel's peer
/// credentials when it connects. The socket's mode (0660) decides who may connect at all; these
/// grants narrow what those who may connect can do: a shop's staff group can steer playback while
/// only the integrator's account loads configs.
///
/// A grant names a user (`alice`, or a uid `1000`), a group (`@staff`, or a gid `@1001`) or
/// `others`. A user's own grant wins; else the highest grant among the groups the client is in;
/// else `others`; else `admin` (today's rule: whoever may connect is trusted). Root and the
/// player's own user are always `admin`: they could replace the player anyway.
public struct SocketRoles: Sendable, Equatable, Codable {
    public enum Principal: Sendable, Hashable, Codable, CustomStringConvertible {
        /// A user name, or a uid written in digits.
        case user(String)
        /// A group name, or a gid written in digits.
        case group(String)
        case others

        /// `alice`, `1000`, `@staff`, `@1001` or `others`; nil for an empty name.
        public init?(_ text: String) {
            if text == "others" {
                self = .others
            } else if text.hasPrefix("@") {
                let name = String(text.dropFirst())
                guard !name.isEmpty else { return nil }
                self = .group(name)
            } else {
                guard !text.isEmpty else { return nil }
                self = .user(text)
            }
        }

        public var description: String {
            switch self {
            case .user(let name): name
            case .group(let name): "@" + name
            case .others: "others"
            }
        }
    }

    public struct Grant: Sendable, Equatable, Codable {
        public var principal: Principal
        public var role: ControlRole

        public init(_ principal: Principal, _ role: ControlRole) {
            self.principal = principal
            self.role = role
        }
    }

    /// Who a connecting client is, as the accounts database knows it.
    public struct Peer: Sendable, Equatable {
        public var uid: UInt32
        /// Its user name, when the uid has one.
        public var userName: String?
        /// Every group it is in (the primary one from SO_PEERCRED and the user's supplementary
        /// ones), by id and, where they have one, name.
        public var groupIDs: Set<UInt32>
        public var groupNames: Set<String>

        public init(uid: UInt32, userName: String? = nil, groupIDs: Set<UInt32> = [], groupNames: Set<String> = []) {
            self.uid = uid
            self.userName = userName
            self.groupIDs = groupIDs
            self.groupNames = groupNames
        }
    }

    public var grants: [Grant]

    public init(_ grants: [Grant] = []) {
        self.grants = grants
    }

    /// True when nothing is granted: every client who may connect is `admin`, and no account
    /// needs to be looked up.
    public var isEmpty: Bool { grants.isEmpty }

    /// The role of `peer`, connecting to a player that runs as `ownUID`.
    public func role(of peer: Peer, ownUID: UInt32) -> ControlRole {
        if peer.uid == 0 || peer.uid == ownUID { return .admin }
        let own = grants.filter {
            guard case .user(let name) = $0.principal else { return false }
            return name == peer.userName || UInt32(name) == peer.uid
        }
        // Two grants for one user is a config error; the decoder refuses it, so the last is as good as any.
        if let grant = own.last { return grant.role }
        let byGroup = grants.filter {
            guard case .group(let name) = $0.principal else { return false }
            return peer.groupNames.contains(name) || UInt32(name).map(peer.groupIDs.contains) == true
        }
        if let highest = byGroup.map(\.role).max() { return highest }
        return grants.last { $0.principal == .others }?.role ?? .admin
    }
}
