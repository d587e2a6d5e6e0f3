import Foundation
import MarqueeCore
import Yams

extension ConfigurationDecoder {
    static let controlKeys = ["socket", "roles"]

    /// `socket: auto`, `none`, or a path (relative to the config's folder).
    mutating func decodeControl(_ node: Node) -> ControlConfiguration {
        var control = ControlConfiguration()
        guard let fields = fields(of: node, in: "control", allowed: Self.controlKeys) else { return control }
        if let node = fields["socket"]?.value, let text = string(node, expected: "auto, none or a socket path") {
            switch text {
            case "auto": control.socket = .automatic
            case "none": control.socket = .none
            case "":
                log.error(at: SourcePosition(of: node), "expected auto, none or a socket path, found an empty string")
            default:
                control.socket = .path(URL(fileURLWithPath: text, relativeTo: baseDirectory).standardizedFileURL.path)
            }
        }
        if let node = fields["roles"]?.value {
            control.roles = decodeSocketRoles(node)
        }
        return control
    }

    /// `roles:` a mapping of users (`alice`, `1000`), groups (`@staff`) and `others` to roles.
    private mutating func decodeSocketRoles(_ node: Node) -> SocketRoles {
        if isNothing(node) { return SocketRoles() }
        guard case .mapping(let mapping) = node else {
            log.error(at: SourcePosition(of: node), "expected a mapping of users, @groups or others to control roles (e.g. '@staff: control'), found \(describe(node))")
            return SocketRoles()
        }
        var grants: [SocketRoles.Grant] = []
        for (keyNode, roleNode) in mapping {
            guard case .scalar(let keyScalar) = keyNode, !duplicateKeySentinels.contains(keyScalar.string) else { continue }
            guard let principal = SocketRoles.Principal(keyScalar.string) else {
                log.error(at: SourcePosition(of: keyNode), "expected a user name, a uid, @group, @gid or others, found '\(keyScalar.string)'")
                continue
            }
            if let role: ControlRole = choice(roleNode, named: "control role") {
                grants.append(SocketRoles.Grant(principal, role))
            }
        }
        return SocketRoles(grants)
    }
}
