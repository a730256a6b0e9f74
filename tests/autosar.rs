//! The AUTOSAR ECUC fragment and the OSEK OIL parsed back, element by
//! element, against the AMP placement of the analysis they came from.

use std::collections::BTreeMap;

use quick_xml::Reader;
use quick_xml::events::Event;

use crate::{corera, shared};

/// An XML element: its name, text and children.
#[derive(Debug, Default)]
struct Node {
    name: String,
    text: String,
    children: Vec<Node>,
}

impl Node {
    fn child(&self, name: &str) -> Option<&Node> {
        self.children.iter().find(|c| c.name == name)
    }

    fn all<'a>(&'a self, name: &'a str) -> impl Iterator<Item = &'a Node> + 'a {
        self.children.iter().filter(move |c| c.name == name)
    }

    /// Every descendant named `name`, depth first.
    fn find<'a>(&'a self, name: &str, out: &mut Vec<&'a Node>) {
        for c in &self.children {
            if c.name == name {
                out.push(c);
            }
            c.find(name, out);
        }
    }

    fn text_of(&self, name: &str) -> String {
        self.child(name).map(|c| c.text.clone()).unwrap_or_default()
    }
}

fn parse_xml(text: &str) -> Node {
    let mut reader = Reader::from_str(text);
    let mut stack = vec![Node::default()];
    loop {
        match reader.read_event().expect("well-formed XML") {
            Event::Start(e) => stack.push(Node { name: e.name().0.to_string(), ..Node::default() }),
            Event::End(_) => {
                let node = stack.pop().unwrap();
                stack.last_mut().unwrap().children.push(node);
            }
            Event::Empty(e) => {
                stack.last_mut().unwrap().children.push(Node { name: e.name().0.to_string(), ..Node::default() })
            }
            Event::Text(t) => stack.last_mut().unwrap().text.push_str(&t.xml10_content()),
            Event::Eof => break,
            _ => {}
        }
    }
    assert_eq!(stack.len(), 1, "every element closed");
    stack.pop().unwrap()
}

/// The printer's analysis on `cores` cores (its recommendation floats
/// tasks, so the targets write its best AMP placement): the directory,
/// the analysis file, and the AMP placement they must write as
/// `(task, core, isr)`.
fn analysis(cores: u32) -> (tempfile::TempDir, std::path::PathBuf, Vec<(String, u64, bool)>) {
    let dir = tempfile::tempdir().unwrap();
    corera()
        .args(["analyze", "samples/printer/printer.log", "--cores", &cores.to_string(), "-q", "--replay-budget", "60"])
        .arg("-o")
        .arg(dir.path())
        .assert()
        .success();
    let path = dir.path().join("analysis.json");
    let json: serde_json::Value = serde_json::from_slice(&std::fs::read(&path).unwrap()).unwrap();
    let floats = json["placement"].as_array().unwrap().iter().any(|p| p["cores"].as_array().unwrap().len() > 1);
    let placement = if floats {
        let best = json["alternatives"].as_array().unwrap().iter().find(|a| a["label"] == "best AMP").unwrap();
        best["placement"].clone()
    } else {
        json["placement"].clone()
    };
    let placement = placement
        .as_array()
        .unwrap()
        .iter()
        .map(|p| (p["task"].as_str().unwrap().to_string(), p["core"].as_u64().unwrap(), p["kind"] == "isr"))
        .collect();
    (dir, path, placement)
}

/// The ARXML: one `EcucCoreDefinition` per core with its id, one
/// OS-Application per core referring to it, and every task and ISR in the
/// OS-Application of its core, exactly once, as `OsAppTaskRef` or
/// `OsAppIsrRef` to an `OsTask` or `OsIsr` container.
#[test]
fn autosar_ecuc_assigns_each_task_to_the_os_application_of_its_core() {
    let (dir, analysis, placement) = analysis(3);
    let file = dir.path().join("Os_corera.arxml");
    corera().arg("emit").arg(&analysis).args(["-q", "--target", "autosar", "-o"]).arg(&file).assert().success();
    let root = parse_xml(&std::fs::read_to_string(&file).unwrap());
    let autosar = root.child("AUTOSAR").expect("an AUTOSAR root");
    let package = autosar.child("AR-PACKAGES").and_then(|p| p.child("AR-PACKAGE")).expect("a package");
    assert_eq!(package.text_of("SHORT-NAME"), "Corera");
    let modules: BTreeMap<String, &Node> = package
        .child("ELEMENTS")
        .unwrap()
        .all("ECUC-MODULE-CONFIGURATION-VALUES")
        .map(|m| (m.text_of("SHORT-NAME"), m))
        .collect();
    assert_eq!(modules["Os"].text_of("DEFINITION-REF"), "/AUTOSAR/EcucDefs/Os");
    // EcuC: the cores and their ids.
    let mut cores = Vec::new();
    modules["EcuC"].find("ECUC-CONTAINER-VALUE", &mut cores);
    let cores: BTreeMap<String, String> = cores
        .into_iter()
        .filter(|c| c.text_of("DEFINITION-REF").ends_with("/EcucHardware/EcucCoreDefinition"))
        .map(|c| {
            let mut values = Vec::new();
            c.find("VALUE", &mut values);
            (c.text_of("SHORT-NAME"), values[0].text.clone())
        })
        .collect();
    assert_eq!(cores.len(), 3);
    for c in 0..3 {
        assert_eq!(cores[&format!("Core{c}")], c.to_string());
    }
    // Os: task and ISR containers, and the OS-Applications.
    let containers: Vec<&Node> = modules["Os"].child("CONTAINERS").unwrap().all("ECUC-CONTAINER-VALUE").collect();
    let kind_of: BTreeMap<String, String> = containers
        .iter()
        .map(|c| (c.text_of("SHORT-NAME"), c.text_of("DEFINITION-REF").rsplit('/').next().unwrap().to_string()))
        .collect();
    let mut assigned: BTreeMap<String, (u64, String)> = BTreeMap::new();
    for app in containers.iter().filter(|c| c.text_of("DEFINITION-REF").ends_with("/Os/OsApplication")) {
        let refs: Vec<(String, String)> = app
            .child("REFERENCE-VALUES")
            .unwrap()
            .all("ECUC-REFERENCE-VALUE")
            .map(|r| (r.text_of("DEFINITION-REF").rsplit('/').next().unwrap().to_string(), r.text_of("VALUE-REF")))
            .collect();
        let core_refs: Vec<&String> =
            refs.iter().filter(|(d, _)| d == "OsApplicationCoreRef").map(|(_, v)| v).collect();
        assert_eq!(core_refs.len(), 1, "one core per OS-Application");
        let core: u64 = core_refs[0].strip_prefix("/Corera/EcuC/EcucHardware/Core").unwrap().parse().unwrap();
        assert_eq!(app.text_of("SHORT-NAME"), format!("OsApplication_Core{core}"));
        for (def, value) in refs.iter().filter(|(d, _)| d != "OsApplicationCoreRef") {
            let name = value.strip_prefix("/Corera/Os/").unwrap().to_string();
            let expected = if def == "OsAppIsrRef" { "OsIsr" } else { "OsTask" };
            assert_eq!(kind_of[&name], expected, "{name} is referred to as {def}");
            assert!(assigned.insert(name.clone(), (core, def.clone())).is_none(), "{name} in two OS-Applications");
        }
    }
    let names = corera_emit::short_names(placement.iter().map(|(t, _, _)| t.as_str()));
    assert_eq!(assigned.len(), placement.len(), "every task in one OS-Application");
    for ((task, core, isr), name) in placement.iter().zip(&names) {
        let (got, def) = &assigned[name];
        assert_eq!(got, core, "{task}");
        assert_eq!(def == "OsAppIsrRef", *isr, "{task}");
    }
}

/// The OIL: a `CPU_DATA` per core and every task's and ISR's `CPU_ID`
/// matching the AMP placement; priorities as the trace gave them.
#[test]
fn oil_reads_back_to_the_amp_placement() {
    let (dir, analysis, placement) = analysis(2);
    let text = corera().arg("emit").arg(&analysis).args(["-q", "--target", "oil"]).output().unwrap();
    assert!(text.status.success(), "{}", String::from_utf8_lossy(&text.stderr));
    let text = String::from_utf8(text.stdout).unwrap();
    assert_eq!(text.matches("CPU_DATA = CORE").count(), 2);
    // OBJECT name { ATTR = value; ... };
    let mut found: BTreeMap<String, (String, u64)> = BTreeMap::new();
    let mut current: Option<(String, String)> = None;
    for line in text.lines().map(str::trim) {
        if let Some(rest) = line.strip_prefix("TASK ").or_else(|| line.strip_prefix("ISR ")) {
            let kind = line.split(' ').next().unwrap().to_string();
            current = Some((kind, rest.trim_end_matches(" {").to_string()));
        } else if let (Some((kind, name)), Some(v)) = (&current, line.strip_prefix("CPU_ID = \"Core")) {
            let core: u64 = v.trim_end_matches("\";").parse().unwrap();
            found.insert(name.clone(), (kind.clone(), core));
        } else if line == "};" {
            current = None;
        }
    }
    let names = corera_emit::short_names(placement.iter().map(|(t, _, _)| t.as_str()));
    assert_eq!(found.len(), placement.len());
    for ((task, core, isr), name) in placement.iter().zip(&names) {
        assert_eq!(found[name], ((if *isr { "ISR" } else { "TASK" }).to_string(), *core), "{task}");
    }
    assert!(text.contains("PRIORITY = "), "priorities from the trace");
    drop(dir);
}

/// A placement file with masks and no AMP alternative is refused by
/// both targets, with the reason.
#[test]
fn autosar_refuses_a_placement_with_masks_and_no_amp_alternative() {
    let (dir, analysis, _) = analysis(2);
    let mut json: serde_json::Value = serde_json::from_slice(&std::fs::read(&analysis).unwrap()).unwrap();
    json["alternatives"] = serde_json::json!([]);
    json["placement"][5]["cores"] = serde_json::json!([0, 1]);
    let core = json["placement"][5]["core"].clone();
    assert!(core == 0 || core == 1);
    let path = dir.path().join("masks.json");
    std::fs::write(&path, corera_emit::to_json(&json)).unwrap();
    for target in ["autosar", "oil"] {
        corera()
            .arg("emit")
            .arg(&path)
            .args(["-q", "--target", target])
            .assert()
            .code(2)
            .stderr(predicates::str::contains("AUTOSAR Classic binds each task to one core"));
    }
}

/// On a model on its own hardware, the cores carry the model's processing
/// unit names in corera's order (waters() 2019: core 0 is the GPU `GP10B`,
/// core 1 `Core2`), never corera's indices, which would name another core
/// of the model.
#[test]
fn a_models_cores_keep_their_names() {
    corera_testdata::shared_or_skip!("amalthea");
    let dir = tempfile::tempdir().unwrap();
    corera()
        .args(["analyze", shared("amalthea/waters2019_challenge.amxmi"), "-q", "--replay-budget", "30", "-o"])
        .arg(dir.path())
        .assert()
        .success();
    let analysis = dir.path().join("analysis.json");
    let json: serde_json::Value = serde_json::from_slice(&std::fs::read(&analysis).unwrap()).unwrap();
    let names: Vec<&str> =
        json["model"]["info"]["cores"].as_array().unwrap().iter().map(|c| c["name"].as_str().unwrap()).collect();
    assert_eq!(&names[..2], ["GP10B", "Core2"]);
    let out = corera().arg("emit").arg(&analysis).args(["-q", "--target", "oil"]).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let text = String::from_utf8(out.stdout).unwrap();
    let declared: Vec<&str> = text
        .lines()
        .filter_map(|l| l.trim().strip_prefix("CPU_DATA = CORE { ID = \"")?.strip_suffix("\"; };"))
        .collect();
    assert_eq!(declared, names);
    for line in text.lines().filter_map(|l| l.trim().strip_prefix("CPU_ID = \"")) {
        assert!(names.contains(&line.trim_end_matches("\";")), "{line}");
    }
}

/// OS-Applications the user names in the constraints file: their tasks
/// share a core in every placement, and the ARXML writes each under its
/// name with `OsTrusted` and its criticality, the rest of each core's tasks
/// in that core's OS-Application.
#[test]
fn named_os_applications_keep_their_tasks_together_and_their_names() {
    let dir = tempfile::tempdir().unwrap();
    let constraints = dir.path().join("constraints.toml");
    std::fs::write(
        &constraints,
        "[[os_application]]\nname = \"OsApp_Motion\"\ntasks = [\"MotorCarriage\", \"MotorPaper\", \"EncoderIsr\"]\n\
         trusted = true\ncriticality = \"ASIL-B\"\n\n[[os_application]]\nname = \"OsApp_Print\"\n\
         tasks = [\"Rasterizer\", \"BandDma\"]\n",
    )
    .unwrap();
    corera()
        .args([
            "analyze",
            "samples/printer/printer.log",
            "--cores",
            "2",
            "-q",
            "--replay-budget",
            "60",
            "--objective",
            "traffic",
        ])
        .arg("--constraints")
        .arg(&constraints)
        .arg("-o")
        .arg(dir.path())
        .assert()
        .success();
    let json: serde_json::Value =
        serde_json::from_slice(&std::fs::read(dir.path().join("analysis.json")).unwrap()).unwrap();
    assert_eq!(json["os_applications"][0]["name"], "OsApp_Motion");
    let core_of = |task: &str| {
        json["placement"].as_array().unwrap().iter().find(|p| p["task"] == task).unwrap()["core"].as_u64().unwrap()
    };
    assert_eq!(core_of("MotorCarriage"), core_of("EncoderIsr"));
    assert_eq!(core_of("MotorPaper"), core_of("EncoderIsr"));
    assert_eq!(core_of("Rasterizer"), core_of("BandDma"));
    let file = dir.path().join("Os_corera.arxml");
    corera()
        .arg("emit")
        .arg(dir.path().join("analysis.json"))
        .args(["-q", "--target", "autosar", "-o"])
        .arg(&file)
        .assert()
        .success();
    let root = parse_xml(&std::fs::read_to_string(&file).unwrap());
    let mut containers = Vec::new();
    root.find("ECUC-CONTAINER-VALUE", &mut containers);
    let apps: BTreeMap<String, &Node> = containers
        .into_iter()
        .filter(|c| c.text_of("DEFINITION-REF").ends_with("/Os/OsApplication"))
        .map(|c| (c.text_of("SHORT-NAME"), c))
        .collect();
    let refs = |app: &Node| -> Vec<String> {
        app.child("REFERENCE-VALUES").unwrap().all("ECUC-REFERENCE-VALUE").map(|r| r.text_of("VALUE-REF")).collect()
    };
    let motion = apps["OsApp_Motion"];
    assert_eq!(motion.child("DESC").unwrap().text_of("L-2"), "criticality ASIL-B");
    let mut values = Vec::new();
    motion.find("VALUE", &mut values);
    assert_eq!(values[0].text, "1", "OsTrusted");
    let motion_refs = refs(motion);
    assert_eq!(motion_refs[0], format!("/Corera/EcuC/EcucHardware/Core{}", core_of("EncoderIsr")));
    let mut members: Vec<&str> = motion_refs[1..].iter().map(|r| r.strip_prefix("/Corera/Os/").unwrap()).collect();
    members.sort_unstable();
    assert_eq!(members, ["EncoderIsr", "MotorCarriage", "MotorPaper"]);
    assert!(apps["OsApp_Print"].child("DESC").is_none());
    // Every task in exactly one OS-Application.
    let mut all: Vec<String> = apps.values().flat_map(|a| refs(a).into_iter().skip(1)).collect();
    let n = all.len();
    all.sort();
    all.dedup();
    assert_eq!(all.len(), n);
    assert_eq!(n, json["placement"].as_array().unwrap().len());
}

/// corera's ECUC ARXML loaded by `autosar-data` in strict mode, which
/// validates every element against the AUTOSAR 4 schema revision the file
/// declares: no error, no warning; and every value reference in it (the
/// OS-Applications' task, ISR and core references) resolves to an element
/// of the file (the `DEFINITION-REF`s name AUTOSAR's own module
/// definitions, which the file does not carry). How many references
/// resolved, or what is wrong.
fn load_strictly(arxml: &[u8]) -> Result<usize, String> {
    let model = autosar_data::AutosarModel::new();
    let (file, warnings) = model.load_buffer(arxml, "Os_corera.arxml", true).map_err(|e| e.to_string())?;
    if !warnings.is_empty() {
        return Err(format!("{warnings:?}"));
    }
    // The revision the file declares (`AUTOSAR_4-3-0.xsd`), the one it was
    // validated against.
    assert_eq!(file.version(), autosar_data::AutosarVersion::Autosar_4_3_0);
    let mut refs = 0;
    for (_, element) in model.elements_dfs() {
        if element.is_reference() && element.element_name() != autosar_data::ElementName::DefinitionRef {
            element
                .get_reference_target()
                .map_err(|e| format!("{:?} does not resolve: {e}", element.character_data()))?;
            refs += 1;
        }
    }
    Ok(refs)
}

fn loads_strictly_with_resolving_references(arxml: &[u8]) {
    let refs = load_strictly(arxml).unwrap_or_else(|e| panic!("{e}"));
    assert!(refs > 0, "no value references checked");
}

#[test]
fn the_printer_arxml_is_valid_autosar_and_its_references_resolve() {
    let (dir, analysis, _) = analysis(2);
    let file = dir.path().join("Os_corera.arxml");
    corera().arg("emit").arg(&analysis).args(["-q", "--target", "autosar", "-o"]).arg(&file).assert().success();
    let text = std::fs::read_to_string(&file).unwrap();
    loads_strictly_with_resolving_references(text.as_bytes());
    // The checks can fail: a reference to nowhere, an element the schema
    // does not have there.
    let dangling = text.replacen(">/Corera/Os/", ">/Corera/Nowhere/", 1);
    assert!(load_strictly(dangling.as_bytes()).unwrap_err().contains("does not resolve"));
    let unknown = text.replacen("<SHORT-NAME>", "<LONG-NAME-X>x</LONG-NAME-X><SHORT-NAME>", 1);
    assert!(load_strictly(unknown.as_bytes()).is_err());
}

#[test]
fn the_waters_arxml_is_valid_autosar_and_its_references_resolve() {
    corera_testdata::shared_or_skip!("amalthea/waters2019_challenge.amxmi");
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("Os_corera.arxml");
    corera()
        .arg("emit")
        .arg(crate::shared("amalthea/waters2019_challenge.amxmi"))
        .args(["-q", "--target", "autosar", "--replay-budget", "20", "-o"])
        .arg(&file)
        .assert()
        .success();
    loads_strictly_with_resolving_references(&std::fs::read(&file).unwrap());
}
