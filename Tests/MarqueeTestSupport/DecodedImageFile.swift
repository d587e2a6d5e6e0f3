import Foundation

/// An image file decoded by the ffmpeg CLI, not by the code under test: its size (ffprobe) and
/// its pixels as RGB24, row by row. A machine without ffmpeg fails the test with that message.
public struct DecodedImageFile: Sendable {
    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    public let width: Int
    public let height: Int
    public let rgb: [UInt8]

    /// The file's bytes (a JPEG, a PNG), written to a scratch file and read back by ffprobe and ffmpeg.
    public init(_ bytes: [UInt8]) throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("marquee-decoded-\(UUID().uuidString).img")
        try Data(bytes).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let probed = try Self.run(["ffprobe", "-v", "error", "-select_streams", "v:0", "-show_entries", "stream=width,height",
                                   "-of", "csv=p=0", file.path])
        let text = String(decoding: probed, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        let sides = text.split(separator: ",").compactMap { Int($0) }
        guard sides.count == 2 else { throw Failure(description: "ffprobe read no picture size: '\(text)'") }
        width = sides[0]
        height = sides[1]
        rgb = [UInt8](try Self.run(["ffmpeg", "-nostdin", "-loglevel", "error", "-i", file.path, "-f", "rawvideo", "-pix_fmt", "rgb24", "-"]))
        guard rgb.count == width * height * 3 else {
            throw Failure(description: "ffmpeg decoded \(rgb.count) bytes of a \(width)x\(height) picture")
        }
    }

    /// The colour at (x, y) as red, green, blue.
    public func colour(x: Int, y: Int) -> [Int] {
        let start = (y * width + x) * 3
        return rgb[start..<start + 3].map(Int.init)
    }

    /// The colour at the centre.
    public var centre: [Int] { colour(x: width / 2, y: height / 2) }

    /// Each channel within `tolerance` of `expected` (JPEG is lossy).
    public static func isNear(_ found: [Int], _ expected: [Int], within tolerance: Int) -> Bool {
        found.count == expected.count && zip(found, expected).allSatisfy { abs($0 - $1) <= tolerance }
    }

    private static func run(_ arguments: [String]) throws -> Data {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        do {
            try process.run()
        } catch {
            throw Failure(description: "\(arguments[0]) could not be run (\(error)); these tests decode images with the ffmpeg CLI")
        }
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw Failure(description: "\(arguments[0]) failed (\(process.terminationStatus))") }
        return data
    }
}
