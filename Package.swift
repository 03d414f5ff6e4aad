// swift-tools-version: 6.1
import PackageDescription

let package = Package(
    name: "TraitKit",
    products: [
        .library(name: "TraitKit", targets: ["TraitKit"]),
        .library(name: "TraitKitLua", targets: ["TraitKitLua"]),
        .executable(name: "traitkit", targets: ["TraitKitCLI"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.4.0"),
    ],
    targets: [
        // Lua's core is linked in statically, as lua.c links it (module.modulemap): calls
        // within it are direct, where liblua5.4.so's go through the PLT (about 8 % of a plain
        // Lua loop). No pkg-config for either library: their headers and libraries sit in the
        // system's directories, and a -L given to the linker (Scripts/check-lua-api, for Lua
        // built with its API checks) must be searched before those.
        .systemLibrary(name: "CLua"),
        .systemLibrary(name: "CEditLine"),
        .target(name: "CThreadStack"),
        .target(name: "TraitKit", dependencies: ["CThreadStack"]),
        .target(name: "CSupport", dependencies: ["CLua"]),
        .target(name: "TraitKitLua", dependencies: ["TraitKit", "CLua", "CSupport"]),
        // luaopen_traitkit, for the C module Scripts/build-lua-module builds (no SwiftPM
        // product: SwiftPM would link liblua into it, and the interpreter provides Lua).
        .target(name: "TraitKitLuaModule", dependencies: ["TraitKitLua"]),
        .executableTarget(
            name: "TraitKitCLI",
            dependencies: [
                "TraitKitLua",
                "CLua",
                "CEditLine",
                "CSupport",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            // The Lua API exported from the executable, as lua.c's -Wl,-E does, for the C
            // modules a script may `require` (they take lua_* from the program that loads them).
            linkerSettings: [.unsafeFlags(["-Xlinker", "--export-dynamic"])]
        ),
        .testTarget(name: "TraitKitTests", dependencies: ["TraitKit"]),
        .testTarget(name: "TraitKitLuaTests", dependencies: ["TraitKitLua", "TraitKit"]),
    ],
    swiftLanguageModes: [.v6]
)
