import Foundation
import Yams

extension ConfigurationDecoder {
    static let controlKeys = ["socket"]

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
        return control
    }
}
