#!/usr/bin/env python3
"""A peer-written Xcode project file for the OpenStep reader's golden tests:
mod-pbxproj (pip install pbxproj) builds a small project and saves it in
Xcode's layout (object comments, sections, one-line build files); the
expected value is what mod-pbxproj's own parser (openstep_parser) reads back,
as JSON. Usage: python3 make_pbxproj.py (writes project.pbxproj and
project.json beside itself). mod-pbxproj picks random object IDs, so the
committed files are one run's."""
import json
import os

from openstep_parser import OpenStepDecoder
from pbxproj import XcodeProject

here = os.path.dirname(os.path.abspath(__file__))
tree = {
    "archiveVersion": "1", "classes": {}, "objectVersion": "56",
    "objects": {
        "AAAAAAAAAAAAAAAAAAAAAAAA": {"isa": "PBXProject", "mainGroup": "BBBBBBBBBBBBBBBBBBBBBBBB",
                                     "targets": ["EEEEEEEEEEEEEEEEEEEEEEEE"], "buildConfigurationList": "CCCCCCCCCCCCCCCCCCCCCCCC",
                                     "compatibilityVersion": "Xcode 14.0", "projectDirPath": "", "projectRoot": "",
                                     "attributes": {"LastUpgradeCheck": "1500"}},
        "BBBBBBBBBBBBBBBBBBBBBBBB": {"isa": "PBXGroup", "children": [], "sourceTree": "<group>"},
        "CCCCCCCCCCCCCCCCCCCCCCCC": {"isa": "XCConfigurationList", "buildConfigurations": ["DDDDDDDDDDDDDDDDDDDDDDDD"],
                                     "defaultConfigurationIsVisible": "0", "defaultConfigurationName": "Release"},
        "DDDDDDDDDDDDDDDDDDDDDDDD": {"isa": "XCBuildConfiguration", "name": "Release",
                                     "buildSettings": {"SDKROOT": "iphoneos", "SWIFT_VERSION": "5.0",
                                                       "PRODUCT_BUNDLE_IDENTIFIER": "com.example.planner",
                                                       "INFOPLIST_KEY_CFBundleDisplayName": "Trip Planner"}},
        "EEEEEEEEEEEEEEEEEEEEEEEE": {"isa": "PBXNativeTarget", "name": "App", "productName": "App",
                                     "productType": "com.apple.product-type.application",
                                     "buildPhases": ["FFFFFFFFFFFFFFFFFFFFFFFF"], "buildConfigurationList": "CCCCCCCCCCCCCCCCCCCCCCCC",
                                     "dependencies": [], "buildRules": []},
        "FFFFFFFFFFFFFFFFFFFFFFFF": {"isa": "PBXSourcesBuildPhase", "buildActionMask": "2147483647", "files": [],
                                     "runOnlyForDeploymentPostprocessing": "0"},
    },
    "rootObject": "AAAAAAAAAAAAAAAAAAAAAAAA",
}
path = os.path.join(here, "project.pbxproj")
project = XcodeProject(tree, path)
for name in ["Sources/main.swift", "Sources/Trip Model.swift", "Sources/Views/MapView.swift"]:
    project.add_file(name, force=False)
project.save()
with open(path, encoding="utf-8") as f:
    expected = OpenStepDecoder.ParseFromString(f.read())
with open(os.path.join(here, "project.json"), "w") as f:
    json.dump(expected, f, indent=1, sort_keys=True)
    f.write("\n")
