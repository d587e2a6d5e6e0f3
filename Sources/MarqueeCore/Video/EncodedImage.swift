/// A picture encoded as an image file in memory: the file's bytes, the picture's size and format.
public struct EncodedImage: Sendable, Equatable {
    public var bytes: [UInt8]
    public var size: PixelSize
    public var format: ImageFileFormat

    public init(bytes: [UInt8], size: PixelSize, format: ImageFileFormat) {
        self.bytes = bytes
        self.size = size
        self.format = format
    }
}
